/**
 * What the audit role reads from the trail: accesses per user per day, and
 * one user's accesses themselves (the report's drill-down). Each filter rule
 * is written once for each place the trail is kept (SQL for PostgreSQL, a
 * predicate over the entries kept in memory for the embedded store), and both
 * readings go through them, so a row of the report and its drill-down count
 * the same entries.
 */
import type { SqlExecutor } from '../store/driver.ts';
import {
  type ActivityFilter,
  type ActivityReport,
  type AuditOperation,
  type ChainedEntry,
  ENTRIES_LIMIT,
  type EntriesFilter,
  type EntriesPage,
  type ListedEntry,
  MAX_ENTRIES_LIMIT,
  type RecordAccessFilter,
  type RecordRef,
} from '../model/audit.ts';
import { AT_ISO, recordKey, recordOfKey } from './chain.ts';

/**
 * The `user` filter's rule, for every backend: a username matches when it
 * contains the filter text, case-sensitively, every character taken literally
 * (`%`, `_` and `\` included). So `@hmrc.gov.uk` counts a department's users,
 * as caseworkers were told it would in the existing service, whose substring
 * LIKE gave `%` and `_` a wildcard meaning no screen ever mentioned.
 */
export const userMatches = (username: string, user: string): boolean => username.includes(user);

/** `userMatches` in SQL (`?` is the filter text): `strpos` compares characters, with no pattern syntax to escape. */
const USER_MATCHES_SQL = 'strpos(username, ?) > 0';

/**
 * Both readings' filter: `user` is contained in the username (the report), `username` is the whole of it (the
 * drill-down).
 */
interface TrailFilter extends Omit<ActivityFilter, 'user'> {
  readonly user?: string;
  readonly username?: string;
  /** Only entries that disclosed or decided on this record. */
  readonly record?: RecordRef;
}

const TRAIL_READ: AuditOperation = 'audit-read';

/**
 * The filter as a WHERE clause on audit_log and its parameters. The day bounds are instants of
 * UTC midnight whatever the session's TimeZone, as the days the report groups by are UTC days.
 */
function whereOf(filter: TrailFilter): { where: string; params: unknown[] } {
  const conditions = [
    `at >= ($1::date)::timestamp AT TIME ZONE 'UTC'`,
    `at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'`,
  ];
  const params: unknown[] = [filter.from, filter.to];
  const add = (sql: string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  add(USER_MATCHES_SQL, filter.user);
  add('username = ?', filter.username);
  add('groups @> ARRAY[?::text]', filter.group);
  add('operation = ?', filter.operation);
  // Reads of the trail itself are shown only when asked for: the report counts accesses to registrations.
  if (filter.operation === undefined) conditions.push(`operation <> '${TRAIL_READ}'`);
  add('dataset = ?', filter.dataset);
  // The records' GIN index answers this: who saw a record is an index lookup, not a scan.
  add('records @> ARRAY[?::text]', filter.record && recordKey(filter.record));
  return { where: conditions.join(' AND '), params };
}

/**
 * The same filter over an entry held in memory (its `at` is ISO 8601 in UTC, so its first ten characters are
 * the day).
 */
function matches(entry: ChainedEntry, filter: TrailFilter): boolean {
  const day = entry.at.slice(0, 10);
  if (day < filter.from || day > filter.to) return false;
  if (filter.user !== undefined && !userMatches(entry.username, filter.user)) return false;
  if (filter.username !== undefined && entry.username !== filter.username) return false;
  if (filter.group !== undefined && !entry.groups.includes(filter.group)) return false;
  if (filter.operation !== undefined ? entry.operation !== filter.operation : entry.operation === TRAIL_READ)
    return false;
  if (filter.dataset !== undefined && entry.dataset !== filter.dataset) return false;
  if (filter.record !== undefined) {
    const { type, id } = filter.record;
    if (!entry.records?.some((ref) => ref.type === type && ref.id === id)) return false;
  }
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

/**
 * The limit asked for, within its bounds: a caller other than the route (which checks its own) cannot ask for
 * the whole trail.
 */
const limitOf = (limit: number | undefined) =>
  Number.isInteger(limit) ? Math.min(Math.max(limit as number, 1), MAX_ENTRIES_LIMIT) : ENTRIES_LIMIT;

/** The drill-down's filter in the shared form: its `user` is the whole username. */
const drillDown = ({ user, limit: _, ...filter }: EntriesFilter): TrailFilter => ({ ...filter, username: user });

/** Entries from the audit table matching `filter`, newest first, at most `limit` (and whether there were more). */
async function listEntries(db: SqlExecutor, filter: TrailFilter, limit: number): Promise<EntriesPage> {
  const { where, params } = whereOf(filter);
  // `at` is named for the table's column in ORDER BY: the output column of that name is text.
  const rows = await db.query<
    Omit<ListedEntry, 'requestId' | 'records'> & { request_id: string; records: string[] | null }
  >(
    `SELECT ${AT_ISO} AS at, username, client, groups, dataset, operation, path, query, results, request_id, records
       FROM audit_log WHERE ${where}
      ORDER BY audit_log.at DESC, audit_log.id DESC LIMIT $${params.length + 1}`,
    [...params, limit + 1],
  );
  const entries = rows.slice(0, limit).map(({ request_id, records, ...row }) => ({
    ...row,
    results: Number(row.results),
    requestId: request_id,
    ...(records ? { records: records.map(recordOfKey) } : {}),
  }));
  return { entries, truncated: rows.length > limit };
}

/**
 * The same from entries held in memory, oldest first as they are kept: walked from the newest,
 * stopping once one past the limit is found. Entries of one batch share their `at`; the last
 * written comes first, as the table's `id DESC` has it.
 */
function listEntriesOf(kept: readonly ChainedEntry[], filter: TrailFilter, limit: number): EntriesPage {
  const entries: ListedEntry[] = [];
  for (let i = kept.length - 1; i >= 0; i--) {
    if (!matches(kept[i], filter)) continue;
    if (entries.length === limit) return { entries, truncated: true };
    const { hash: _, ...entry } = kept[i];
    entries.push(entry);
  }
  return { entries, truncated: false };
}

/**
 * One user's entries from the audit table, newest first; one more row than the limit is read, so that whether
 * more existed is known without counting them all.
 */
export const userEntries = (db: SqlExecutor, filter: EntriesFilter): Promise<EntriesPage> =>
  listEntries(db, drillDown(filter), limitOf(filter.limit));

export const userEntriesOf = (kept: readonly ChainedEntry[], filter: EntriesFilter): EntriesPage =>
  listEntriesOf(kept, drillDown(filter), limitOf(filter.limit));

/** Who saw a record: the accesses that disclosed or decided on it. */
const recordFilter = ({ type, id, from, to }: RecordAccessFilter): TrailFilter => ({ from, to, record: { type, id } });

export const recordAccesses = (db: SqlExecutor, filter: RecordAccessFilter): Promise<EntriesPage> =>
  listEntries(db, recordFilter(filter), limitOf(filter.limit));

export const recordAccessesOf = (kept: readonly ChainedEntry[], filter: RecordAccessFilter): EntriesPage =>
  listEntriesOf(kept, recordFilter(filter), limitOf(filter.limit));
