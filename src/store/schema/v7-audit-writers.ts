/**
 * Version 7: the audit trail at scale.
 *
 * - Each writer (a process's trail) chains its own entries (`writer`, `seq` from 1, unique
 *   together), so writers never wait for each other's lock. New rows must name their writer (a
 *   NOT VALID check: the rows before it chained as one trail and keep verifying so).
 * - `audit_chain_origin` keeps the end of that earlier single chain, where every writer's chain
 *   starts from: the old chain continues into the new ones.
 * - `records`, the registrations an access disclosed (`type:id`), with an index so that who saw
 *   a record is an index lookup. GIN's pending list is kept small (256 kB): an insert then costs
 *   the same whether it names a record or none (a verification's time must not tell which), and
 *   the insert that finds the list full merges only that much. An index on (username, at) for
 *   the report's drill-down.
 * - `events` and `fields`: a change-feed answer's event ids and the record fields it included.
 * - `audit_checkpoint`: signed checkpoints binding every writer's head; append-only like the trail.
 */
export const auditWriters = `
ALTER TABLE audit_log ADD COLUMN writer text, ADD COLUMN seq bigint, ADD COLUMN records text[], ADD COLUMN events text[], ADD COLUMN fields text[];
ALTER TABLE audit_log ADD CONSTRAINT audit_log_writer_chain CHECK (writer IS NOT NULL AND seq >= 1) NOT VALID;
CREATE UNIQUE INDEX audit_log_writer_seq ON audit_log (writer, seq);
CREATE INDEX audit_log_records ON audit_log USING gin (records) WITH (gin_pending_list_limit = 256) WHERE records IS NOT NULL;
CREATE INDEX audit_log_username_at ON audit_log (username, at);
CREATE TABLE audit_chain_origin (
  head text NOT NULL,
  entries bigint NOT NULL,
  last_id bigint NOT NULL
);
INSERT INTO audit_chain_origin (head, entries, last_id)
  SELECT coalesce((SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1), repeat('0', 64)), count(*), coalesce(max(id), 0) FROM audit_log;
CREATE TABLE audit_checkpoint (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  body jsonb NOT NULL,
  hash text NOT NULL UNIQUE,
  public_key text NOT NULL,
  signature text NOT NULL
);
CREATE TRIGGER audit_chain_origin_no_update_delete BEFORE UPDATE OR DELETE ON audit_chain_origin
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_chain_origin_no_truncate BEFORE TRUNCATE ON audit_chain_origin
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_checkpoint_no_update_delete BEFORE UPDATE OR DELETE ON audit_checkpoint
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_checkpoint_no_truncate BEFORE TRUNCATE ON audit_checkpoint
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
REVOKE UPDATE, DELETE, TRUNCATE ON audit_chain_origin, audit_checkpoint FROM PUBLIC;
`;
