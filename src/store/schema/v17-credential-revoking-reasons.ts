/**
 * Version 17: the trigger function that makes a registration's credentials invalid (migration 12),
 * made again from the change-feed reasons that revoke them (REVOKING_REASONS,
 * src/types/credentials.ts), so that SQL names the ones TypeScript does.
 *
 * Written by `npm run regenerate` (src/store/generated-migrations.ts); frozen from then on.
 */
export const name = 'credentials: the reasons that revoke them';

export const sql = `
CREATE OR REPLACE FUNCTION credential_status_revoke() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE credential_status s SET invalid = true
    FROM added e
   WHERE e.reason IN ('corrected', 'replaced', 'blocked', 'cancelled', 'other')
     AND s.record_type = e.record_type AND s.record_id = e.record_id AND NOT s.invalid;
  RETURN NULL;
END
$$;
`;
