/** Where digital certificates' statuses are kept: the entries of the token status lists. */

/**
 * Entries a status list holds. At least 100,000 (the floor, so that a list says nothing of
 * which registration an invalid entry is): 2^17, one bit each, 16 KiB before compression.
 */
export const LIST_SIZE = 131_072;

/**
 * The change-feed reasons that make every credential of the registration invalid: a correction,
 * a re-registration (the registration replaced), a block, a cancellation, and a change the
 * description names no reason for (`other`: marriages and partnerships record no correction text,
 * so a correction of one arrives so). A marginal note or an unblocking leaves what a credential
 * said standing. PostgreSQL's trigger names the same ones: `npm run regenerate` writes its
 * function from this list into a new migration (store/generated-migrations.ts).
 */
export const REVOKING_REASONS = ['corrected', 'replaced', 'blocked', 'cancelled', 'other'] as const;

/** One credential's place: the list it is in and its index there. */
export interface StatusEntry {
  readonly list: number;
  readonly idx: number;
}

export interface CredentialStatuses {
  /** A new entry for a credential of the registration, at a random free index. */
  allocate(type: string, id: number): Promise<StatusEntry>;
  /** The indexes of a list's invalid credentials, or undefined when no credential is in that list. */
  invalid(list: number): Promise<readonly number[] | undefined>;
}
