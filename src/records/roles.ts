/**
 * The roles this service knows, from the record descriptions: each dataset's own role (read its
 * records) and its `-verify` role (verify against them only), `full-details`, `suggest`,
 * `audit` and `credentials`. An operator recording a client's roles (`subscriptions add|update --roles`) is checked
 * against it, so a mistyped role cannot silently leave a client without its events.
 */
import { AUDIT_ROLE, CREDENTIALS_ROLE, FULL_DETAILS_ROLE, SUGGEST_ROLE } from '../model/identity.ts';
import type { RecordDescription } from './define.ts';

export const roleVocabulary = (descriptions: readonly RecordDescription[]): string[] => [
  ...descriptions.flatMap((d) => [d.name, `${d.name}-verify`]),
  FULL_DETAILS_ROLE,
  SUGGEST_ROLE,
  AUDIT_ROLE,
  CREDENTIALS_ROLE,
];

/** What is wrong with a list of roles, or undefined. */
export function rolesProblem(descriptions: readonly RecordDescription[], roles: readonly string[]): string | undefined {
  const known = roleVocabulary(descriptions);
  if (roles.length === 0)
    return `name at least one role (${known.join(', ')}), or 'none' to record that the client holds none`;
  const unknown = roles.filter((role) => !known.includes(role));
  if (unknown.length)
    return `unknown role${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${known.join(', ')})`;
  return undefined;
}
