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

/**
 * The `user` filter's rule, for every backend: a username matches when it
 * contains the filter text, case-sensitively, every character taken literally
 * (`%`, `_` and `\` included). So `@hmrc.gov.uk` counts a department's users,
 * as caseworkers were told it would in the existing service, whose substring
 * LIKE gave `%` and `_` a wildcard meaning no screen ever mentioned.
 */
export const userMatches = (username: string, user: string): boolean => username.includes(user);

/** `userMatches` in SQL (`?` is the filter text): `strpos` compares characters, with no pattern syntax to escape. */
export const USER_MATCHES_SQL = 'strpos(username, ?) > 0';

/** `{ username: { 'YYYY-MM-DD': count } }`, days in UTC, both bounds inclusive. */
export async function userActivity(db: SqlExecutor, filter: ActivityFilter): Promise<Record<string, Record<string, number>>> {
  const conditions = [`at >= $1::date`, `at < $2::date + 1`];
  const params: unknown[] = [filter.from, filter.to];
  const add = (sql: string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  add(USER_MATCHES_SQL, filter.user);
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
