/**
 * Whether a registration may be issued as a credential, in any format and by any route: a blocked,
 * cancelled or re-registered one may not, since what a credential would say of it could not be
 * relied on. Written once, for the API's credential route and the wallet pick-up alike.
 */
import { isBlocked, readPath, type RecordDescription } from '../records/define.ts';

export interface Refusal {
  readonly code: 'Blocked' | 'Cancelled' | 'Replaced';
  readonly message: string;
}

/** Why no credential is issued for the record, or undefined when one may be. */
export function issueRefusal(record: Record<string, unknown>, description: RecordDescription): Refusal | undefined {
  const { blockedFlag, verification } = description;
  if (isBlocked(record, blockedFlag))
    return { code: 'Blocked', message: 'The registration is blocked: no credential is issued for it' };
  if (verification.cancelledFlag && readPath(record, verification.cancelledFlag) === true) {
    return { code: 'Cancelled', message: 'The registration was cancelled: no credential is issued for it' };
  }
  if (readPath(record, verification.replacedBy) != null) {
    return {
      code: 'Replaced',
      message:
        'The registration was replaced by a re-registration: ask for a credential of the registration that replaced it',
    };
  }
  return undefined;
}
