/**
 * Signed checkpoints: what the trail held at an instant (its size and every
 * writer's head), hashed and signed with Ed25519. A checkpoint kept anywhere
 * else (by an outside witness) lets someone holding only it prove that
 * nothing the trail held then has changed since: `lev-api audit verify
 * --checkpoint FILE`. Both stores make and check them with this module.
 */
import * as crypto from 'node:crypto';
import type { Checkpoint, CheckpointBody, WriterHead } from '../model/audit.ts';
import { sha256 } from '../digest.ts';
import { GENESIS_HASH } from './chain.ts';

/** The checkpoint's hash, over its body in a fixed order (a body read back from jsonb has its keys in another). */
const checkpointHash = (body: CheckpointBody): string =>
  sha256(
    JSON.stringify([
      'lev-api audit checkpoint',
      body.at,
      body.entries,
      body.origin,
      body.heads.map((h) => [h.writer, h.seq, h.hash]),
      body.previous,
    ]),
  );

export interface CheckpointSigner {
  readonly publicKey: string;
  sign(body: CheckpointBody): Checkpoint;
}

export function checkpointSigner(privateKey: crypto.KeyObject): CheckpointSigner {
  const publicKey = crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    publicKey,
    sign(body) {
      const hash = checkpointHash(body);
      const signature = crypto.sign(null, Buffer.from(hash), privateKey).toString('base64');
      return { ...body, heads: [...body.heads], hash, publicKey, signature };
    },
  };
}

export const newSigningKey = (): crypto.KeyObject => crypto.generateKeyPairSync('ed25519').privateKey;

/** Why a checkpoint cannot be taken at its word, or undefined when its hash and signature hold. */
export function checkpointFault(checkpoint: Checkpoint): string | undefined {
  if (checkpointHash(checkpoint) !== checkpoint.hash) return 'its hash does not match what it states';
  let valid = false;
  try {
    const key = crypto.createPublicKey({
      key: Buffer.from(checkpoint.publicKey, 'base64'),
      format: 'der',
      type: 'spki',
    });
    valid = crypto.verify(null, Buffer.from(checkpoint.hash), key, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    valid = false;
  }
  return valid ? undefined : 'its signature is not valid for its public key';
}

/** A body stating `heads` after `previous` (the genesis hash before the first checkpoint). */
export const checkpointBody = (
  at: string,
  origin: { head: string; entries: number },
  heads: readonly WriterHead[],
  previous = GENESIS_HASH,
): CheckpointBody => ({
  at,
  entries: origin.entries + heads.reduce((sum, head) => sum + head.seq, 0),
  origin: origin.head,
  heads: [...heads].sort((a, b) => (a.writer < b.writer ? -1 : a.writer > b.writer ? 1 : 0)),
  previous,
});

/**
 * Checkpoints as a witness keeps them: one object, or a list (as GET /api/v0/audit/checkpoints answers).
 * Throws naming what is wrong.
 */
export function parseCheckpoints(text: string): Checkpoint[] {
  const value: unknown = JSON.parse(text);
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw new Error('it holds no checkpoint');
  return list.map((item, n) => {
    const c = item as Partial<Checkpoint>;
    const ok =
      c !== null &&
      typeof c === 'object' &&
      typeof c.at === 'string' &&
      Number.isSafeInteger(c.entries) &&
      typeof c.origin === 'string' &&
      typeof c.previous === 'string' &&
      typeof c.hash === 'string' &&
      typeof c.publicKey === 'string' &&
      typeof c.signature === 'string' &&
      Array.isArray(c.heads) &&
      c.heads.every(
        (h) => h && typeof h.writer === 'string' && Number.isSafeInteger(h.seq) && typeof h.hash === 'string',
      );
    if (!ok)
      throw new Error(
        `item ${n + 1} is not a checkpoint (at, entries, origin, heads, previous, hash, publicKey, signature)`,
      );
    return c as Checkpoint;
  });
}

/**
 * Runs `take` every `intervalMs` until stopped, one at a time, off any request's path. A failed
 * checkpoint (the database away) is tried again at the next interval: the trail does not depend
 * on it, only how recently its heads were bound.
 */
export function scheduleCheckpoints(take: () => Promise<unknown>, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= take()
      .catch(() => {})
      .finally(() => (running = undefined));
  }, intervalMs);
  // The process may end while checkpoints are scheduled.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
