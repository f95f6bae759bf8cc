/**
 * Version 4: verifications are audited too (operation `verify`, `results` 1 when verified, 0 when
 * not). PostgreSQL named the column's check `audit_log_operation_check`. NOT VALID: every row
 * there already passed the narrower check, so the audit table (which may be large) is not read
 * again while the migration holds its lock; new rows are checked all the same.
 */
export const auditVerifications = `
ALTER TABLE audit_log DROP CONSTRAINT audit_log_operation_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_operation_check CHECK (operation IN ('lookup', 'search', 'verify')) NOT VALID;
`;
