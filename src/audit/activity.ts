/**
 * Accesses per user per day, the report the audit role reads: each filter
 * rule written once for each place the trail is kept (SQL for PostgreSQL, a
 * predicate over the entries kept in memory for the embedded store).
 */
import type { SqlExecutor } from '../store/driver.ts';
import type { ActivityFilter, ActivityReport, ChainedEntry } from '../types/audit.ts';

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

/**
 * The filter as a WHERE clause on audit_log and its parameters. The day bounds are instants of
 * UTC midnight whatever the session's TimeZone, as the days the report groups by are UTC days.
 */
function whereOf(filter: ActivityFilter): { where: string; params: unknown[] } {
  const conditions = [`at >= ($1::date)::timestamp AT TIME ZONE 'UTC'`, `at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'`];
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
  return { where: conditions.join(' AND '), params };
}

/** The same filter over an entry held in memory (its `at` is ISO 8601 in UTC, so its first ten characters are the day). */
function matches(entry: ChainedEntry, filter: ActivityFilter): boolean {
  const day = entry.at.slice(0, 10);
  if (day < filter.from || day > filter.to) return false;
  if (filter.user !== undefined && !userMatches(entry.username, filter.user)) return false;
  if (filter.group !== undefined && !entry.groups.includes(filter.group)) return false;
  if (filter.operation !== undefined && entry.operation !== filter.operation) return false;
  if (filter.dataset !== undefined && entry.dataset !== filter.dataset) return false;
  return true;
}

/** The report from the audit table. Days in UTC, both bounds inclusive. */
export async function userActivity(db: SqlExecutor, filter: ActivityFilter): Promise<ActivityReport> {
  const { where, params } = whereOf(filter);
  const rows = await db.query<{ username: string; day: string; count: number }>(
    `SELECT username, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
       FROM audit_log WHERE ${where}
      GROUP BY 1, 2 ORDER BY 1, 2`,
    params,
  );
  const report: ActivityReport = {};
  for (const row of rows) (report[row.username] ??= {})[row.day] = Number(row.count);
  return report;
}

/** The same report from entries held in memory. */
export function userActivityOf(entries: Iterable<ChainedEntry>, filter: ActivityFilter): ActivityReport {
  const counts = new Map<string, Map<string, number>>();
  for (const entry of entries) {
    if (!matches(entry, filter)) continue;
    const day = entry.at.slice(0, 10);
    const days = counts.get(entry.username) ?? new Map<string, number>();
    counts.set(entry.username, days);
    days.set(day, (days.get(day) ?? 0) + 1);
  }
  const report: ActivityReport = {};
  for (const username of [...counts.keys()].sort()) {
    const days = counts.get(username)!;
    report[username] = Object.fromEntries([...days].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
  return report;
}
