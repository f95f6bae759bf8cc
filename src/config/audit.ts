/**
 * The audit trail: the embedded store's file and memory, and the signed checkpoints of either
 * store's trail.
 */
import type { KeyObject } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { parseSigningKey } from './pem.ts';
import type { EnvValues } from './read-env.ts';
import { opaque, type Settled } from './shape.ts';

export const Audit = {
  AUDIT_FILE: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Embedded store only: file the audit trail is appended to (NDJSON, hash-chained, checked by ' +
        "'lev-api audit verify --file'), its latest head kept beside it in FILE.head; without it the trail " +
        'is kept only in memory',
    }),
  ),
  AUDIT_FILE_MAX_MB: Type.Integer({
    minimum: 1,
    maximum: 100000,
    default: 64,
    description: 'Size at which AUDIT_FILE is rotated (FILE becomes FILE.1, and so on)',
  }),
  AUDIT_FILE_KEEP: Type.Integer({
    minimum: 0,
    maximum: 1000,
    default: 9,
    description: 'Rotated audit files kept besides the current one; older ones are deleted',
  }),
  AUDIT_MEMORY_ENTRIES: Type.Integer({
    minimum: 1,
    maximum: 10_000_000,
    default: 10_000,
    description: 'Embedded store only: the latest audit entries kept in memory for the audit report',
  }),
  AUDIT_CHECKPOINT_S: Type.Integer({
    minimum: 1,
    maximum: 86400,
    default: 60,
    description:
      "Seconds between signed checkpoints of the audit trail (its size and every writer's head), listed at " +
      '/api/v0/audit/checkpoints for witnesses to keep',
  }),
  AUDIT_SIGNING_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Ed25519 private key that signs the audit trail's checkpoints: PKCS#8, PEM or its DER in base64. " +
        'Without it each process makes one at start, which no witness can know beforehand',
    }),
  ),
};

/** The embedded store's audit trail (a server's is its audit table). */
export const EmbeddedAuditConfig = Type.Object({
  /** The latest entries kept in memory for the report. */
  keep: Type.Number(),
  file: Type.Optional(Type.Object({ path: Type.String(), maxBytes: Type.Number(), keep: Type.Number() })),
});
export type EmbeddedAuditConfig = Settled<typeof EmbeddedAuditConfig>;

/** The audit trail's signed checkpoints, in either store. */
export const AuditCheckpointConfig = Type.Object({
  intervalMs: Type.Number(),
  /** The key that signs them; the backend makes one at start when none is configured. */
  signingKey: Type.Optional(opaque<KeyObject>()),
});
export type AuditCheckpointConfig = Settled<typeof AuditCheckpointConfig>;

type AuditValues = EnvValues<typeof Audit> & { DATABASE_URL?: string };

/** The embedded trail's settings; AUDIT_FILE with a server is a problem. */
export function embeddedAuditOf(value: AuditValues, problems: string[]): EmbeddedAuditConfig {
  if (value.AUDIT_FILE && value.DATABASE_URL)
    problems.push('AUDIT_FILE is for the embedded store; with DATABASE_URL the audit trail is the audit_log table');
  return {
    keep: value.AUDIT_MEMORY_ENTRIES,
    file: value.AUDIT_FILE
      ? { path: value.AUDIT_FILE, maxBytes: value.AUDIT_FILE_MAX_MB * 1024 * 1024, keep: value.AUDIT_FILE_KEEP }
      : undefined,
  };
}

/** The checkpoints' settings, the signing key parsed; a key that does not parse is a problem. */
export function auditCheckpointsOf(value: AuditValues, problems: string[]): AuditCheckpointConfig {
  let signingKey: KeyObject | undefined;
  if (value.AUDIT_SIGNING_KEY) {
    try {
      signingKey = parseSigningKey(value.AUDIT_SIGNING_KEY);
    } catch (error) {
      problems.push(
        `AUDIT_SIGNING_KEY: not an Ed25519 private key in PKCS#8 (PEM, or DER in base64): ${(error as Error).message}`,
      );
    }
  }
  return { intervalMs: value.AUDIT_CHECKPOINT_S * 1000, signingKey };
}
