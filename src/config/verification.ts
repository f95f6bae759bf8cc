/**
 * Verification: the watch on clients whose answers are mostly "not verified" (an enumeration
 * looks like that).
 */
import { Type } from '@sinclair/typebox';
import type { EnvValues } from './read-env.ts';
import type { Settled } from './shape.ts';

export const Verification = {
  VERIFY_FALSE_SHARE_THRESHOLD: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.8,
    description:
      "Share of a client's verifications answered false, over VERIFY_FALSE_SHARE_WINDOW_S, above which it " +
      'is logged (warn) and counted',
  }),
  VERIFY_FALSE_SHARE_WINDOW_S: Type.Integer({
    minimum: 10,
    maximum: 86_400,
    default: 600,
    description: "Seconds of a client's verifications whose share of false answers is watched",
  }),
  VERIFY_FALSE_SHARE_MIN_COUNT: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 50,
    description: "Fewest verifications in the window before a client's share of false answers is judged",
  }),
};

export const VerificationConfig = Type.Object({
  /** The watch on each client's share of verifications answered false. */
  falseShare: Type.Object({
    /** Above this share (0 to 1) the client is logged and counted. */
    threshold: Type.Number(),
    windowMs: Type.Number(),
    /** Fewest answers in the window before the share is judged. */
    minCount: Type.Number(),
  }),
});
export type VerificationConfig = Settled<typeof VerificationConfig>;

export const verificationOf = (value: EnvValues<typeof Verification>): VerificationConfig => ({
  falseShare: {
    threshold: value.VERIFY_FALSE_SHARE_THRESHOLD,
    windowMs: value.VERIFY_FALSE_SHARE_WINDOW_S * 1000,
    minCount: value.VERIFY_FALSE_SHARE_MIN_COUNT,
  },
});
