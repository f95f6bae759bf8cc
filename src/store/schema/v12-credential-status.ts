/**
 * Version 12: digital certificates. `credential_status` holds one row a credential issued: its
 * place in a token status list (list, index at random), the registration it is of, and whether it
 * is still valid. The trigger makes every credential of a registration invalid in the transaction
 * that records its correction, re-registration, block, cancellation or other change of its data in
 * the change feed (types/credentials.ts, REVOKING_REASONS), so no
 * process needs to be running for it. The audit trail records issuing as its own operation.
 */
export const credentialStatus = `
CREATE TABLE credential_status (
  list integer NOT NULL,
  idx integer NOT NULL CHECK (idx >= 0),
  record_type text NOT NULL,
  record_id bigint NOT NULL,
  invalid boolean NOT NULL DEFAULT false,
  issued_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (list, idx)
);
CREATE INDEX credential_status_record ON credential_status (record_type, record_id);
CREATE FUNCTION credential_status_revoke() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE credential_status s SET invalid = true
    FROM added e
   WHERE e.reason IN ('corrected', 'replaced', 'blocked', 'cancelled', 'other')
     AND s.record_type = e.record_type AND s.record_id = e.record_id AND NOT s.invalid;
  RETURN NULL;
END
$$;
CREATE TRIGGER feed_event_revokes_credentials AFTER INSERT ON feed_event
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION credential_status_revoke();
ALTER TABLE audit_log DROP CONSTRAINT audit_log_operation_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_operation_check
  CHECK (operation IN ('lookup', 'search', 'verify', 'suggest', 'events', 'audit-read', 'credential')) NOT VALID;
`;
