/**
 * Writes records into PostgreSQL through COPY, its bulk path. A batch of
 * records the register does not hold is copied straight into the record and
 * key tables as it is read; any other batch is copied into staging tables of
 * the transaction's own, and merged into the tables by one statement each
 * when the last batch is in (or every MERGE_EVERY records).
 *
 * Records are stored as `json`, their text as sent: the database checks that
 * it is JSON and nothing more, which costs a third of building jsonb and
 * makes every read's text free. A record counts as changed when its search
 * keys differ, or its text differs and its content, compared as jsonb,
 * differs too, so a file written with other spacing or key order reloads as
 * unchanged. A changed record's key rows are replaced; the counts are what
 * the merge did. Each record's close-match keys (match/keys.ts) are worked out from its search
 * keys here, by the code the memory store uses, and written beside them; a changed record's old
 * close-match keys are worked out again from its old search keys and deleted by their primary key,
 * so the key table needs no index on the record id. The register's counts of names (what close
 * matches weigh an exact name by) are kept by the same transaction. The ids of one write must be distinct: the
 * merge is one INSERT ... ON CONFLICT, which cannot touch a row twice.
 */
import { registeredType, updatedType } from '../records/changes.ts';
import { suggestionKeyValues } from '../match/keys.ts';
import type { RecordToWrite, WriteCounts } from '../model/records.ts';
import type { SqlDriver, SqlExecutor } from './driver.ts';
import { CopyData } from './copy-data.ts';
import { tableNames } from './record-tables.ts';
import { suggestionKeyColumns } from './suggestion-backfill.ts';
import { NameTally } from './name-tally.ts';

/** PostgreSQL's SQLSTATE for a row a unique index already holds. */
const UNIQUE_VIOLATION = '23505';

// Staging tables, dropped with the transaction that made them.
const STAGE =
  `
CREATE TEMP TABLE load_records (id bigint NOT NULL, data text NOT NULL, search_keys text NOT NULL) ON COMMIT DROP;
CREATE TEMP TABLE load_keys (id bigint NOT NULL, date date NOT NULL, surname text COLLATE "C" NOT NULL, ` +
  `forenames text COLLATE "C" NOT NULL) ON COMMIT DROP;
CREATE TEMP TABLE load_suggestion_keys (key bigint NOT NULL, id bigint NOT NULL) ON COMMIT DROP;
CREATE TEMP TABLE load_new_suggestion_keys (key bigint NOT NULL, id bigint NOT NULL) ON COMMIT DROP;
CREATE TEMP TABLE load_changed (id bigint NOT NULL, inserted boolean NOT NULL, reason text, old_keys text) ON ` +
  `COMMIT DROP;
CREATE TEMP TABLE load_events (id bigint NOT NULL, reason text) ON COMMIT DROP`;

interface Targets {
  readonly records: string;
  readonly keys: string;
  readonly suggestionKeys: string;
  /** The close-match key table was emptied by this transaction: its rows can be copied frozen. */
  readonly freezeSuggestionKeys?: boolean;
  /** A table of the transaction's own the records' ids are copied into too, for their events. */
  readonly ids?: string;
}

const STAGING: Targets = { records: 'load_records', keys: 'load_keys', suggestionKeys: 'load_suggestion_keys' };

/** The COPY buffers of one write, used again batch after batch. */
interface CopyBuffers {
  readonly records: CopyData;
  readonly keys: CopyData;
  readonly suggestions: CopyData;
  readonly ids: CopyData;
}

const copyBuffers = (): CopyBuffers => ({
  records: new CopyData('binary'),
  keys: new CopyData('text'),
  suggestions: new CopyData('binary'),
  ids: new CopyData('binary'),
});

/**
 * Copies one batch into `into`: its records, their search keys, then their close-match keys.
 * Records and close-match keys go in COPY's binary format (the records' text as it is, numbers as
 * numbers); search keys as text, so the server checks their dates.
 */
async function copyBatch(
  tx: Required<SqlExecutor>,
  into: Targets,
  batch: readonly RecordToWrite[],
  buffers: CopyBuffers,
): Promise<void> {
  const { records, keys, suggestions, ids } = buffers;
  records.clear();
  keys.clear();
  suggestions.clear();
  ids.clear();
  for (const record of batch) {
    records.row(3).int8(record.id).string(record.json).string(JSON.stringify(record.keys));
    if (into.ids) ids.row(1).int8(record.id);
    // A record's keys are distinct as a load makes them; a record given directly may repeat one.
    // Normalised names hold only letters, digits and spaces, and dates digits and hyphens: nothing to escape.
    const id = String(record.id);
    record.keys.forEach((key, i) => {
      if (
        record.keys.findIndex(
          (other) => other.date === key.date && other.surname === key.surname && other.forenames === key.forenames,
        ) !== i
      )
        return;
      keys.textRow(`${id}\t${key.date}\t${key.surname}\t${key.forenames}\n`);
    });
    for (const key of suggestionKeyValues(record.keys)) suggestions.row(2).int8(key).int8(record.id);
  }
  await tx.copyFrom(`COPY ${into.records} (id, data, search_keys) FROM STDIN WITH (FORMAT binary)`, records.data());
  if (keys.rowCount) await tx.copyFrom(`COPY ${into.keys} (id, date, surname, forenames) FROM STDIN`, keys.data());
  if (suggestions.rowCount) {
    await tx.copyFrom(
      `COPY ${into.suggestionKeys} (key, id) FROM STDIN WITH (FORMAT binary${
        into.freezeSuggestionKeys ? ', ' + 'FREEZE' : ''
      })`,
      suggestions.data(),
    );
  }
  if (into.ids && ids.rowCount) await tx.copyFrom(`COPY ${into.ids} (id) FROM STDIN WITH (FORMAT binary)`, ids.data());
}

/**
 * Merges the staged records of `type` into its tables; what it did. `reason` is the SQL naming why
 * a record changed, over `o.data` (as stored) and `l.data` (as staged). An updated record's stored
 * row is read by its primary key, as it was before the statement (as every part of one statement
 * reads it), and only for the records updated: a join with the table was planned, for staging
 * tables nothing has analysed, as a scan of the whole register at every merge (at a million
 * births, 1.9 GB read for each 50,000 records loaded), which made a load into a full register a
 * fraction of the rate into an empty one.
 */
async function merge(tx: SqlExecutor, type: string, total: number, reason: string): Promise<WriteCounts> {
  const t = tableNames(type);
  // For an updated record only; its new text is what the INSERT returned (l).
  const ofStored = (select: string) =>
    `CASE WHEN c.inserted THEN NULL ELSE (SELECT ${select} FROM ${t.records} o, (SELECT c.data) l WHERE o.id = ` +
    `c.id) END`;
  await tx.query(
    `WITH changed AS (
       INSERT INTO ${t.records} AS r (id, data, search_keys)
       SELECT id, data::json, search_keys FROM load_records
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, search_keys = EXCLUDED.search_keys
         WHERE r.search_keys <> EXCLUDED.search_keys
            OR (r.data::text <> EXCLUDED.data::text AND r.data::jsonb <> EXCLUDED.data::jsonb)
       RETURNING id, (xmax = 0) AS inserted, CASE WHEN xmax = 0 THEN NULL ELSE data END AS data
     )
     INSERT INTO load_changed (id, inserted, reason, old_keys)
     SELECT c.id, c.inserted, ${ofStored(reason)}, ${ofStored('o.search_keys')}
       FROM changed c`,
  );
  await tx.query('INSERT INTO load_events (id, reason) SELECT id, reason FROM load_changed');
  const [{ inserted, updated }] = await tx.query<{ inserted: number; updated: number }>(
    'SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS ' +
      'updated FROM load_changed',
  );
  // The staged keys of the records changed; when every record staged is new (a week's registrations),
  // all of them, with no join to find which.
  const changedKeys = (staged: string) =>
    inserted === total ? `${staged} s` : `${staged} s JOIN load_changed c ON c.id = s.id`;
  // A record just inserted has no keys yet (keys cascade away with their record).
  if (updated > 0) await tx.query(`DELETE FROM ${t.keys} k USING load_changed c WHERE k.id = c.id AND NOT c.inserted`);
  // In index order, so each page of the primary key is filled in one go; a record may give a key twice.
  await tx.query(
    `INSERT INTO ${t.keys} (date, surname, forenames, id)
     SELECT DISTINCT s.date, s.surname, s.forenames, s.id FROM ${changedKeys('load_keys')}
      ORDER BY 1, 2, 3, 4`,
  );
  // A changed record's old close-match keys, worked out again from its old search keys (they are
  // what was written for them), go by their primary key. Changed records are few in a reload.
  if (updated > 0) {
    const old = await tx.query<{ id: string; search_keys: string }>(
      'SELECT id::text AS id, old_keys AS search_keys FROM load_changed WHERE NOT inserted',
    );
    const { keys, ids } = suggestionKeyColumns(old);
    await tx.query(
      `DELETE FROM ${t.suggestionKeys} k USING unnest($1::bigint[], $2::bigint[]) AS d(key, id) WHERE k.key = ` +
        `d.key AND k.id = d.id`,
      [keys, ids],
    );
  }
  await insertSuggestionKeys(tx, t, changedKeys('load_suggestion_keys'));
  await countNames(tx, t, {
    added: changedKeys('load_keys'),
    removed:
      "SELECT c.id, k->>'surname' AS surname, k->>'forenames' AS forenames " +
      'FROM load_changed c, json_array_elements(c.old_keys::json) AS k WHERE NOT c.inserted',
    newRecords: 'load_changed WHERE inserted',
  });
  return { inserted, updated, unchanged: total - inserted - updated };
}

/**
 * Whether the table holds a record of the batch: first whether it holds any id between the batch's
 * least and greatest (one probe of its primary key, which answers for new registrations, numbered
 * after those before), and only if it does, each id.
 */
async function holdsAny(tx: SqlExecutor, records: string, batch: readonly RecordToWrite[]): Promise<boolean> {
  let least = batch[0].id;
  let greatest = least;
  for (const { id } of batch) {
    if (id < least) least = id;
    else if (id > greatest) greatest = id;
  }
  const [{ held }] = await tx.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT FROM ${records} WHERE id BETWEEN $1 AND $2) AS held`,
    [least, greatest],
  );
  if (!held) return false;
  const [{ each }] = await tx.query<{ each: boolean }>(
    `SELECT EXISTS (SELECT FROM ${records} WHERE id = ANY($1::bigint[])) AS each`,
    [batch.map((record) => record.id)],
  );
  return each;
}

/**
 * Inserts the close-match keys `source` gives (rows `s` with `key` and `id`) into their table, in
 * key order. Keys left by records removed outside the service (a TRUNCATE of the records) may be
 * there already. That is rare, and ON CONFLICT makes every key's insertion speculative (1.4 of 3.1 s
 * for the 760,000 keys of 100,000 births, measured): the keys go in plainly, and only if one is there
 * already is the statement undone and made again, skipping those. The rows are not made distinct
 * first: a record's keys are each given once (suggestionKeyValues), and a write's ids are distinct
 * (a record given twice fails the write at its own row). A `DISTINCT` was planned as a hash of
 * every row and then a sort of its output: 0.8 of the 2.0 s the statement took for those 760,000
 * keys (docs/performance.md).
 */
async function insertSuggestionKeys(tx: SqlExecutor, t: ReturnType<typeof tableNames>, source: string) {
  const insertKeys = (onConflict: string) =>
    `INSERT INTO ${t.suggestionKeys} (key, id) SELECT s.key, s.id FROM ${source} ORDER BY 1, 2${onConflict}`;
  await tx.query('SAVEPOINT suggestion_keys');
  try {
    await tx.query(insertKeys(''));
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT suggestion_keys');
    await tx.query(insertKeys(' ON CONFLICT DO NOTHING'));
  }
  await tx.query('RELEASE SAVEPOINT suggestion_keys');
}

/** No search keys, as countNames's `removed` gives them. */
const NO_KEYS = 'SELECT NULL::bigint AS id, NULL::text AS surname, NULL::text AS forenames WHERE false';

/**
 * Keeps the register's counts of names (schema/v13-register-counts.ts) as a write changes it: the
 * names of the search keys `added` gives (rows `s` with `surname`, `forenames` and `id`) counted in,
 * those of the rows `removed` selects (`id`, `surname`, `forenames`: a changed record's keys as they
 * were) counted out, and the rows of `newRecords` added to the total. A record counts once a name.
 */
async function countNames(
  tx: SqlExecutor,
  t: ReturnType<typeof tableNames>,
  { added, removed, newRecords }: { readonly added: string; readonly removed?: string; readonly newRecords: string },
): Promise<void> {
  await tx.query(
    `WITH added AS MATERIALIZED (SELECT s.id, s.surname, s.forenames FROM ${added}),
     new AS (
       SELECT 's'::"char" AS part, surname AS name, id FROM added
       UNION
       SELECT 'f', split_part(forenames, ' ', 1), id FROM added WHERE forenames <> ''),
     old_keys AS (${removed ?? NO_KEYS}),
     old AS (
       SELECT 's'::"char" AS part, surname AS name, id FROM old_keys
       UNION
       SELECT 'f', split_part(forenames, ' ', 1), id FROM old_keys WHERE forenames <> ''),
     delta AS (
       SELECT part, name, count(*) AS n FROM new GROUP BY part, name
       UNION ALL
       SELECT part, name, -count(*) FROM old GROUP BY part, name
       UNION ALL
       SELECT '*', '', count(*) FROM ${newRecords})
     INSERT INTO ${t.nameCounts} AS n (part, name, count)
     SELECT part, name, sum(n) FROM delta GROUP BY part, name HAVING sum(n) <> 0
     ON CONFLICT (part, name) DO UPDATE SET count = n.count + EXCLUDED.count`,
  );
}

/**
 * Adds the names of `records` new records, tallied as they were read (name-tally.ts), to the
 * register's counts: one statement of the distinct names, where counting them in SQL read each new
 * record's search keys back by id (about 0.45 s of the backend's time against 0.04 s, for 100,000
 * births into a register of a million: docs/performance.md).
 */
async function addNameTally(
  tx: SqlExecutor,
  t: ReturnType<typeof tableNames>,
  tally: NameTally,
  records: number,
): Promise<void> {
  const parts: string[] = [];
  const names: string[] = [];
  const counts: number[] = [];
  for (const [part, map] of [['s', tally.surnames] as const, ['f', tally.forenames] as const]) {
    for (const [name, count] of map) {
      parts.push(part);
      names.push(name);
      counts.push(count);
    }
  }
  parts.push('*');
  names.push('');
  counts.push(records);
  await tx.query(
    `INSERT INTO ${t.nameCounts} AS n (part, name, count)
     SELECT * FROM unnest($1::"char"[], $2::text[], $3::bigint[])
     ON CONFLICT (part, name) DO UPDATE SET count = n.count + EXCLUDED.count`,
    [parts, names, counts],
  );
}

/** The channel a committed load notifies, waking the feed's waiting readers (docs/events.md). */
export const FEED_CHANNEL = 'lev_feed';

/**
 * Numbers the events of the rows `source` gives (`id`, and `reason`, null for a new registration)
 * and adds them to the feed. Called last before COMMIT: the row lock on feed_head, held until the
 * commit, makes a concurrent load wait here until this one is committed and visible, so positions
 * are given in commit order and a reader never sees a later position before an earlier one.
 */
async function appendEvents(
  tx: SqlExecutor,
  type: string,
  source: string,
  traceParent: string | undefined,
): Promise<void> {
  const [{ head, at }] = await tx.query<{ head: string; at: Date }>(
    'SELECT position::text AS head, clock_timestamp() AS at FROM feed_head FOR UPDATE',
  );
  const [{ added }] = await tx.query<{ added: number }>(
    `WITH added AS (
       INSERT INTO feed_event (position, type, record_type, record_id, reason, committed_at, trace_parent)
       SELECT $1::bigint + row_number() OVER (ORDER BY id), CASE WHEN reason IS NULL THEN $2 ELSE $3 END, $4, ` +
      `id, reason, $5, $6
         FROM (${source}) s
       RETURNING 1
     )
     SELECT count(*)::int AS added FROM added`,
    [head, registeredType(type), updatedType(type), type, at, traceParent ?? null],
  );
  if (added === 0) return;
  const [{ position }] = await tx.query<{ position: string }>(
    'UPDATE feed_head SET position = position + $1 RETURNING position::text',
    [added],
  );
  // Delivered at commit, and only if it commits.
  await tx.query('SELECT pg_notify($1, $2)', [FEED_CHANNEL, position]);
}

/**
 * Records staged (in temporary tables, on disk past the server's temp buffers) before they are
 * merged. Each merge puts its keys into the key tables' primary keys at places spread across
 * them, in key order: once those indexes outgrow the server's shared buffers, a merge reads and
 * writes most of their pages whatever its size, so the fewer the merges, the less a load into a
 * full register pays for it (50,000 a merge loaded a file into a register of 2 million at 0.38 of
 * the rate into an empty one). Merging as the load goes keeps the staging tables bounded.
 */
const MERGE_EVERY = 500_000;

/**
 * The memory the database may sort a key table's rows in, building its primary key after a load
 * into an empty table: a million births give 5 million keys of 16 bytes, which PostgreSQL's
 * default (64 MB) would sort on disk.
 */
const KEY_INDEX_MEMORY = '512MB';

/**
 * Writes every batch of records of `type` in one transaction, with their events: all of them, or
 * none. Ids are distinct across the batches. `reason` is as `merge` takes it.
 */
export async function writeRecords(
  driver: SqlDriver,
  type: string,
  batches: AsyncIterable<readonly RecordToWrite[]>,
  reason: string,
  traceParent?: string,
): Promise<WriteCounts> {
  let intoEmpty = false;
  const written = await driver.transaction(async (tx) => {
    if (!tx.copyFrom) throw new Error('this connection cannot COPY');
    const copier = tx as Required<SqlExecutor>;
    const t = tableNames(type);
    // Other writers of the type wait until this one commits (readers do not): an empty table stays empty until then.
    await tx.query(
      `LOCK TABLE ${t.records}, ${t.keys}, ${t.suggestionKeys}, ${t.nameCounts} IN SHARE ROW EXCLUSIVE MODE`,
    );
    const [{ empty }] = await tx.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT FROM ${t.records}) AS empty`);
    intoEmpty = empty;
    // The ids of the records copied straight into the tables (all of them, into empty ones), again
    // in a table of the transaction's own (not logged): their events are numbered from it, not from
    // a scan of the records just written.
    await tx.query('CREATE TEMP TABLE load_new (id bigint NOT NULL) ON COMMIT DROP');
    if (empty) {
      // Every record is new, and the ids are distinct: copied straight into the tables, with nothing
      // to compare. The close-match keys (several a record) are copied into their table with its
      // primary key dropped, and the key built once at the end, sorting in memory: cheaper than
      // indexing each row as it comes. They are copied frozen (the table was emptied by this
      // transaction), so their pages are all visible from the commit: a query's candidates are
      // counted from the index alone, with no visit to the table and no vacuum needed first.
      // The TRUNCATE (close-match keys have no foreign key: any left by records removed outside the
      // service go) holds the key table until the commit: close matches of a type that had no
      // records wait for its load (they had nothing to find).
      await tx.query(`TRUNCATE ${t.suggestionKeys}`);
      await tx.query(`ALTER TABLE ${t.suggestionKeys} DROP CONSTRAINT ${t.suggestionKeys}_pkey`);
      let total = 0;
      const buffers = copyBuffers();
      for await (const batch of batches) {
        await copyBatch(copier, { ...t, freezeSuggestionKeys: true, ids: 'load_new' }, batch, buffers);
        total += batch.length;
      }
      // The register's counts, from the search keys just written (the table held none of the type's).
      await tx.query(`DELETE FROM ${t.nameCounts}`);
      await tx.query(
        `INSERT INTO ${t.nameCounts} (part, name, count)
         SELECT 's', surname, count(DISTINCT id) FROM ${t.keys} GROUP BY surname
         UNION ALL
         SELECT 'f', split_part(forenames, ' ', 1), count(DISTINCT id) FROM ${t.keys} WHERE forenames <> '' ` +
          `GROUP BY split_part(forenames, ' ', 1)
         UNION ALL
         SELECT '*', '', $1::bigint`,
        [total],
      );
      await tx.query(`SET LOCAL maintenance_work_mem = '${KEY_INDEX_MEMORY}'`);
      await tx.query(`ALTER TABLE ${t.suggestionKeys} ADD PRIMARY KEY (key, id)`);
      // Numbering the events sorts the ids (a million take some 40 MB), in memory.
      await tx.query("SET LOCAL work_mem = '256MB'");
      if (total > 0) await appendEvents(tx, type, 'SELECT id, NULL::text AS reason FROM load_new', traceParent);
      return { inserted: total, updated: 0, unchanged: 0 };
    }
    await tx.query("SET LOCAL work_mem = '256MB'");
    // The merge's statements, estimated over staging tables nothing has analysed, cost enough for
    // PostgreSQL to compile them (JIT) at every merge: 2 to 5 s of a merge of 50,000 records, measured.
    await tx.query('SET LOCAL jit = off');
    for (const statement of STAGE.split(';')) await tx.query(statement);
    const counts: WriteCounts = { inserted: 0, updated: 0, unchanged: 0 };
    let staged = 0;
    const buffers = copyBuffers();
    const mergeStaged = async () => {
      const merged = await merge(tx, type, staged, reason);
      counts.inserted += merged.inserted;
      counts.updated += merged.updated;
      counts.unchanged += merged.unchanged;
      await tx.query('TRUNCATE load_records, load_keys, load_suggestion_keys, load_changed');
      staged = 0;
    };
    // A batch none of whose records the register holds (a week's registrations) is written as it
    // is read, as into an empty register, rather than staged and merged once the file is read: the
    // database's work on it then overlaps the loader's reading of the next batch (a file of new
    // births into a register of 100,000 took 0.8 of the time, docs/performance.md), its ids into
    // load_new for its events. Its close-match keys are staged and inserted together in key order,
    // as a merge's are, so that keys left by records removed outside the service (which have no
    // foreign key) undo one statement, not the load; its names are tallied as they are read, and
    // added to the counts with the keys.
    const direct: Targets = { ...t, suggestionKeys: 'load_new_suggestion_keys', ids: 'load_new' };
    let added = 0;
    // The close-match keys and names of the records added since their last insertion.
    let unkeyed = 0;
    const tally = new NameTally();
    const keyAdded = async () => {
      await insertSuggestionKeys(tx, t, 'load_new_suggestion_keys s');
      await tx.query('TRUNCATE load_new_suggestion_keys');
      await addNameTally(tx, t, tally, unkeyed);
      tally.clear();
      unkeyed = 0;
    };
    for await (const batch of batches) {
      if (batch.length === 0) continue;
      if (await holdsAny(tx, t.records, batch)) {
        await copyBatch(copier, STAGING, batch, buffers);
        staged += batch.length;
        if (staged >= MERGE_EVERY) await mergeStaged();
        continue;
      }
      await copyBatch(copier, direct, batch, buffers);
      for (const record of batch) tally.count(record.keys, 1);
      added += batch.length;
      unkeyed += batch.length;
      if (unkeyed >= MERGE_EVERY) await keyAdded();
    }
    if (staged > 0) await mergeStaged();
    if (unkeyed > 0) await keyAdded();
    counts.inserted += added;
    if (counts.inserted + counts.updated > 0) {
      await appendEvents(
        tx,
        type,
        'SELECT id, reason FROM load_events UNION ALL SELECT id, NULL FROM load_new',
        traceParent,
      );
    }
    return counts;
  });
  if (intoEmpty && written.inserted > 0) {
    // A close match reads its candidates' keys from indexes alone, once a vacuum has marked the pages
    // of a load's rows visible to all; and the planner needs the new tables' figures: without them
    // it took the close-match keys' table (7.6 million rows at a million births) for a small one and
    // scanned it whole, 0.8 s a close match, where its index answers in 3 ms. Autovacuum would come
    // to them in its own time (more than five minutes after a load of a million births, measured).
    // The load has committed, so a vacuum that fails (the server stopping) leaves it to autovacuum
    // rather than failing the load.
    // The records are read only by their key, which needs neither (a vacuum of their table would add
    // 4% to a load of a million births, and analysing it 2%); the name counts are a small table.
    const t = tableNames(type);
    const after = [`VACUUM (ANALYZE) ${t.keys}`, `VACUUM (ANALYZE) ${t.suggestionKeys}`, `ANALYZE ${t.nameCounts}`];
    for (const statement of after) await driver.exec(statement).catch(() => {});
  }
  return written;
}
