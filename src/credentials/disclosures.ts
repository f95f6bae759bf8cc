/**
 * Selective disclosure (SD-JWT, RFC 9901 section 4.2) of a credential's record claims: every
 * claim at every depth becomes a disclosure `[salt, name, value]` in base64url, and its container
 * holds the SHA-256 digest of that text in `_sd`, sorted, in its place. A group's disclosure holds
 * its claims so packed; a list (aliases) is disclosed as a whole.
 *
 * This is what `@sd-jwt/core`'s `pack()` does with a frame naming every key, and it gives the same
 * output for the same salts (test/credentials/issue.unit.test.ts holds them equal); it is
 * done here in one synchronous walk because the library's asynchronous one (a promise for each
 * salt and digest, base64 through js-base64) cost most of the time of issuing a credential.
 */
import { randomFillSync } from 'node:crypto';
import { sha256 } from '../digest.ts';
import type { Claims } from './claims.ts';

/** The `_sd_alg` of the digests. */
export const DIGEST_ALG = 'sha-256';

/** Random bytes a salt: 128 bits, what RFC 9901 (section 9.3) recommends at least. */
export const SALT_BYTES = 16;

/**
 * A source of salts, each SALT_BYTES from the CSPRNG in base64url. The bytes are drawn a block at
 * a time: a call to the CSPRNG costs ten times a salt's encoding, and a credential takes dozens.
 * Each byte serves one salt only.
 */
export function saltSource(saltsPerDraw = 256): () => string {
  const block = Buffer.alloc(SALT_BYTES * saltsPerDraw);
  let at = block.length;
  return () => {
    if (at === block.length) {
      randomFillSync(block);
      at = 0;
    }
    const salt = block.toString('base64url', at, at + SALT_BYTES);
    at += SALT_BYTES;
    return salt;
  };
}

const isGroup = (value: unknown): value is Claims =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The claims with each one replaced by its digest, and the disclosures (encoded). Salts are taken
 * in the library's order: a container's groups' claims first, then its own claims.
 */
export function discloseAll(claims: Claims, salt: () => string): { packed: Claims; disclosures: string[] } {
  const disclosures: string[] = [];
  const pack = (container: Claims): Claims => {
    const inner: Claims = {};
    for (const key in container) if (isGroup(container[key])) inner[key] = pack(container[key]);
    const digests: string[] = [];
    for (const key in container) {
      const disclosure = Buffer.from(JSON.stringify([salt(), key, inner[key] ?? container[key]])).toString('base64url');
      disclosures.push(disclosure);
      digests.push(sha256(disclosure, 'base64url'));
    }
    return digests.length ? { _sd: digests.sort() } : {};
  };
  return { packed: pack(claims), disclosures };
}
