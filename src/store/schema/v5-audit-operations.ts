/**
 * Version 5: the audit trail takes the operations that came after verification: close-match
 * suggestions, change-feed reads and reads of the audit trail itself. NOT VALID for the reason
 * version 4 gives: every existing row passed the narrower check.
 */
export const auditOperations = `
ALTER TABLE audit_log DROP CONSTRAINT audit_log_operation_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_operation_check
  CHECK (operation IN ('lookup', 'search', 'verify', 'suggest', 'events', 'audit-read')) NOT VALID;
`;
