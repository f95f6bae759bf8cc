/**
 * Accesses per user per day, the report the audit role reads.
 */
import type { SqlExecutor } from '../store/driver.ts';

export interface ActivityFilter {
  readonly from: string;
  readonly to: string;
  readonly user?: string;
  readonly group?: string;
  readonly operation?: string;
  readonly dataset?: string;
}

/** `{ username: { 'YYYY-MM-DD': count } }`, days in UTC, both bounds inclusive. */
export async function userActivity(db: SqlExecutor, filter: ActivityFilter): Promise<Record<string, Record<string, number>>> {
  const conditions = [`at >= $1::date`, `at < $2::date + 1`];
  const params: unknown[] = [filter.from, filter.to];
  const add = (sql: string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  add('username = ?', filter.user);
  add('groups @> ARRAY[?::text]', filter.group);
  add('operation = ?', filter.operation);
  add('dataset = ?', filter.dataset);
  const rows = await db.query<{ username: string; day: string; count: number }>(
    `SELECT username, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
       FROM audit_log WHERE ${conditions.join(' AND ')}
      GROUP BY 1, 2 ORDER BY 1, 2`,
    params,
  );
  const report: Record<string, Record<string, number>> = {};
  for (const row of rows) (report[row.username] ??= {})[row.day] = Number(row.count);
  return report;
}
