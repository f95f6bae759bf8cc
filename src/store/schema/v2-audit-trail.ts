/**
 * Version 2: the audit trail's table. Append-only in the database itself: a trigger refuses
 * UPDATE, DELETE and TRUNCATE whoever asks, and each entry carries a hash chained to the previous
 * entry's, so a removed or altered entry shows.
 */
export const auditTrail = `
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  username text NOT NULL,
  client text NOT NULL,
  groups text[] NOT NULL,
  dataset text NOT NULL,
  operation text NOT NULL CHECK (operation IN ('lookup', 'search')),
  path text NOT NULL,
  query text NOT NULL,
  results integer NOT NULL,
  request_id text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM PUBLIC;
`;
