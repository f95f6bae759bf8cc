/**
 * A token status list (IETF draft-ietf-oauth-status-list) as the issuer serves it: one bit an
 * entry, 1 where the credential is invalid, compressed and signed with the issuer's key by
 * `@sd-jwt/jwt-status-list`. It names no registration: a credential's index was drawn at random.
 */
import { StatusList, createHeaderAndPayload } from '@sd-jwt/jwt-status-list';
import { SignJWT } from 'jose';
import { LIST_SIZE } from '../model/credentials.ts';
import type { IssuerKey } from './keys.ts';
import { credentialsPath } from './type-metadata.ts';

export const STATUS_LIST_TYPE = 'application/statuslist+jwt';

/** Where a status list is served, under the issuer (given `:list`, the route's pattern). */
export const statusListPath = (list: number | ':list') => `${credentialsPath}/status/${list}`;

export async function statusListToken(
  key: IssuerKey,
  issuer: string,
  list: number,
  invalid: readonly number[],
  ttlS: number,
  now = Date.now(),
): Promise<string> {
  const bits = new Array<number>(LIST_SIZE).fill(0);
  for (const idx of invalid) bits[idx] = 1;
  const iat = Math.floor(now / 1000);
  const { header, payload } = createHeaderAndPayload(
    new StatusList(bits, 1),
    { iss: issuer, sub: `${issuer}${statusListPath(list)}`, iat, exp: iat + Math.max(ttlS * 2, 86_400), ttl: ttlS },
    { alg: key.alg, typ: 'statuslist+jwt', kid: key.kid },
  );
  return new SignJWT(payload).setProtectedHeader(header).sign(key.privateKey);
}
