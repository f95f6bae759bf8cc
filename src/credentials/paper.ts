/**
 * What a printed certificate's QR code holds: the claims the certificate shows (the system number,
 * and each party's names and dates, from the description's search parties), signed in the clear
 * as an SD-JWT VC with no disclosures (`<jwt>~`), so it is small enough for a QR code and verified
 * by the same verifier as any credential, its status included.
 */
import { readPath, type RecordDescription } from '../records/define.ts';
import type { Claims } from './claims.ts';

/** The dot paths of the fields a printed certificate shows, from the description. */
const certificatePaths = (description: RecordDescription): string[] => [
  'id',
  ...description.search.parties.flatMap((party) => [party.forenames, party.surname, ...party.dates]),
];

/** The certificate's claims among those the caller may see, and the fields they are. */
export function certificateClaims(
  description: RecordDescription,
  claims: Claims,
): { claims: Claims; fields: string[] } {
  const out: Claims = {};
  const fields: string[] = [];
  for (const path of new Set(certificatePaths(description))) {
    const value = readPath(claims, path);
    if (value === undefined || value === null) continue;
    const keys = path.split('.');
    let at = out;
    for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Claims;
    at[keys[keys.length - 1]] = value;
    fields.push(path);
  }
  return { claims: out, fields };
}
