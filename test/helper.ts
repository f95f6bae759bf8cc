/**
 * Test harness: stores on both backends, and the app over a real socket.
 * The PostgreSQL backend runs where a server answers (CI has one at
 * 127.0.0.1:5432; with CI=true a missing server fails the run rather than
 * skipping its tests); each store gets a schema of its own, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { type TestContext, after, before } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config/index.ts';
import { type MemoryBackend, openMemoryBackend } from '../src/backend/memory.ts';
import { loadMock } from '../src/backend/open.ts';
import { type PostgresBackend, postgresBackend } from '../src/backend/postgres.ts';
import { recordType } from '../src/load/conversion.ts';
import { loadDataPath } from '../src/load/data-path.ts';
import { openPostgres } from '../src/store/pg-driver.ts';
import { type Migration, migrate } from '../src/store/migrations.ts';
import type { RecordDescription } from '../src/records/define.ts';
import type { StoredRecord, WriteCounts } from '../src/model/records.ts';
import type { RecordReader } from '../src/model/store.ts';
import type { ChainedEntry } from '../src/model/audit.ts';
import { type VerifyResult, auditEntries, verifyAuditChain, verifyEntries } from '../src/audit/verify.ts';
import { builtInTypes as records, builtInServiceTypes } from './record-types.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A server's tests skip where it does not answer, but not in CI (CI=true): there a run that skipped
 * them would pass with the production backend untested, so the first test that asks fails instead.
 */
async function required(name: string, url: string, available: Promise<boolean>): Promise<boolean> {
  if (!(await available) && process.env.CI === 'true') {
    throw new Error(`CI=true, but no ${name} answers at ${url}: the tests that need it cannot be skipped in CI`);
  }
  return available;
}

let reachable: Promise<boolean> | undefined;
/** Whether the PostgreSQL server for tests answers (in CI it must). */
export function postgresAvailable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return required('PostgreSQL server', TEST_DATABASE_URL, reachable);
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let redisReachable: Promise<boolean> | undefined;
/** Whether the Redis server for tests answers a PING within a second (CI has one at 127.0.0.1:6379, and must). */
export function redisAvailable(): Promise<boolean> {
  redisReachable ??= (async () => {
    const client = new Redis(TEST_REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 1000,
      commandTimeout: 1000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  })();
  return required('Redis server', TEST_REDIS_URL, redisReachable);
}

/** A key prefix of a test's own in Redis; its keys are deleted when the test ends. */
export function redisPrefix(t: Pick<TestContext, 'after'>): string {
  const prefix = `lev-api-test-${randomBytes(6).toString('hex')}:`;
  t.after(async () => {
    const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    try {
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length) await client.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    } finally {
      client.disconnect();
    }
  });
  return prefix;
}

export type StoreKind = 'memory' | 'postgres';

/** The backends to run a contract against: always memory, and postgres where a server answers. */
export async function storeKinds(): Promise<StoreKind[]> {
  return (await postgresAvailable()) ? ['memory', 'postgres'] : ['memory'];
}

export const uniqueSchema = () => `test_${randomBytes(6).toString('hex')}`;

/**
 * A backend for a test, with its reads at hand (`store.lookup(...)`) and `upsert`, which writes
 * checked records of a type in one transaction. Passed to `startApp` as it is.
 */
export type TestStore = (MemoryBackend | PostgresBackend) &
  RecordReader & {
    upsert(type: string, records: readonly StoredRecord[]): Promise<WriteCounts>;
    /** The record types it was opened with, for what else the test starts over it (webhook delivery). */
    readonly descriptions: readonly RecordDescription[];
  };

const testStore = (
  backend: MemoryBackend | PostgresBackend,
  descriptions: readonly RecordDescription[],
): TestStore => ({
  ...backend,
  ...backend.records,
  descriptions,
  async upsert(type, stored) {
    const counts = await backend.writer.write(
      type,
      (async function* () {
        yield stored.map((record) => ({ id: record.id, json: JSON.stringify(record.data), keys: record.keys }));
      })(),
    );
    await heldIndexesCaughtUp(backend);
    return counts;
  },
});

/** Close-match indexes held in the service follow the feed: what was written is read once they reach its head. */
async function heldIndexesCaughtUp(backend: MemoryBackend | PostgresBackend) {
  const held = 'suggestionIndexes' in backend ? backend.suggestionIndexes : undefined;
  if (held) await held.reached((await backend.events.bounds(new Date(0))).head);
}

/** An empty store with the schema applied; closed (and its schema dropped) when the test ends. */
export async function emptyStore(
  t: Pick<TestContext, 'after'>,
  kind: StoreKind,
  /**
   * The record types stored (by default the built-in ones), and on PostgreSQL the migrations that make
   * their tables.
   */
  types: { readonly descriptions: readonly RecordDescription[]; readonly migrations?: readonly Migration[] } = {
    descriptions: records,
  },
  /**
   * On PostgreSQL, where close matches find their candidates (SUGGESTION_INDEX); on the embedded
   * store, 'service' finds them on a thread of their own, as a served process does.
   */
  suggestionIndex: 'database' | 'service' = 'database',
): Promise<TestStore> {
  if (kind === 'memory') {
    const backend = await openMemoryBackend(types.descriptions, { keep: 10_000 }, undefined, {
      suggestionThreads: suggestionIndex === 'service' ? 1 : 0,
    });
    t.after(() => backend.close());
    return testStore(backend, types.descriptions);
  }
  let backend: PostgresBackend | undefined;
  const { schema } = await emptySchema(t, () => backend?.close());
  // Named after its schema, so a test that kills connections kills only its own.
  const connection = {
    url: TEST_DATABASE_URL,
    schema,
    poolSize: 4,
    statementTimeoutMs: 10_000,
    applicationName: schema,
  };
  const driver = openPostgres(connection);
  await migrate(driver, {}, types.migrations);
  backend = postgresBackend(driver, types.descriptions, undefined, { suggestionIndex, connection });
  return testStore(backend, types.descriptions);
}

const endings = new WeakMap<object, (() => unknown)[]>();

/**
 * Runs `fn` when the test ends, before whatever was given to `onEnd` earlier in it: what was started
 * last stops first. node:test runs `after` hooks in the order they were added, which would drop a
 * schema (and end its pool) while a worker started on it later still runs.
 */
export function onEnd(t: Pick<TestContext, 'after'>, fn: () => unknown) {
  let stack = endings.get(t);
  if (!stack) {
    const fns: (() => unknown)[] = [];
    endings.set(t, (stack = fns));
    t.after(async () => {
      let failed: { error: unknown } | undefined;
      while (fns.length) {
        try {
          await fns.pop()!();
        } catch (error) {
          failed ??= { error };
        }
      }
      if (failed) throw failed.error;
    });
  }
  stack.push(fn);
}

/**
 * A new, empty PostgreSQL schema, dropped when the test ends, after what the test started on it
 * later through `onEnd` and after `closeFirst` (the test's own connections into it). `admin` is a
 * connection outside it.
 */
export async function emptySchema(t: Pick<TestContext, 'after'>, closeFirst?: () => unknown) {
  const schema = uniqueSchema();
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  onEnd(t, async () => {
    await closeFirst?.();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });
  return { schema, admin };
}

/**
 * A store holding the built-in mock records, or the records of a LEV_DATA-style path (a file or a
 * folder of files named after their type), or the given records.
 */
export async function filledStore(
  t: Pick<TestContext, 'after'>,
  kind: StoreKind,
  data?: string | ReadonlyMap<string, readonly StoredRecord[]>,
  /** On PostgreSQL, where close matches find their candidates (SUGGESTION_INDEX). */
  suggestionIndex: 'database' | 'service' = 'database',
): Promise<TestStore> {
  const store = await emptyStore(t, kind, undefined, suggestionIndex);
  if (data === undefined) await loadMock(store.writer, builtInServiceTypes);
  else if (typeof data === 'string') await loadDataPath(store.writer, data, records);
  else for (const [type, stored] of data) await store.upsert(type, stored);
  await heldIndexesCaughtUp(store);
  return store;
}

export interface RunningApp {
  /** http://127.0.0.1:port, or https:// when the configuration has TLS settings. */
  readonly url: string;
  readonly app: Awaited<ReturnType<typeof buildApp>>;
  /**
   * GET over HTTP (not HTTPS: see test/auth/pki.ts for that) with the mock identity headers (override or
   * drop them with `headers`).
   */
  get(
    path: string,
    headers?: Record<string, string | undefined>,
  ): Promise<{ status: number; headers: Headers; body: any; text: string }>;
}

export const CALLER = { 'x-auth-username': 'test-user', 'x-auth-aud': 'test-client' } as const;
export const FULL_DETAILS = { ...CALLER, 'x-auth-roles': 'full-details' } as const;

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', ...env });
}

/** The app listening on a real loopback socket; closed when the test ends. */
export async function startApp(
  t: Pick<TestContext, 'after'>,
  backend: Parameters<typeof buildApp>[1]['backend'],
  config: Config = testConfig(),
  logger?: Parameters<typeof buildApp>[1]['logger'],
  descriptions?: Parameters<typeof buildApp>[1]['descriptions'],
): Promise<RunningApp> {
  const app = await buildApp(config, {
    backend,
    logger,
    descriptions: descriptions ?? ('descriptions' in backend ? (backend as TestStore).descriptions : records),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(() => app.close());
  const address = app.server.address();
  const url =
    `${config.tls ? 'https' : 'http'}://127.0.0.1:` + `${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    app,
    async get(path, headers = CALLER) {
      const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
        string,
        string
      >;
      const response = await fetch(url + path, { headers: clean });
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: response.status, headers: response.headers, body, text };
    },
  };
}

/** A stand-in for a test's `t` whose cleanups run after every test of the calling file or suite. */
export function suiteContext(): Pick<TestContext, 'after'> {
  const cleanups: Array<() => unknown> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return { after: (fn: () => unknown) => void cleanups.push(fn) };
}

/**
 * The app on the built-in mock (memory backend), started once before the calling file's tests;
 * `started` runs right after, for fixtures that need the running app.
 */
export function sharedApp(started?: (app: RunningApp) => Promise<void>): () => RunningApp {
  const context = suiteContext();
  let running: RunningApp | undefined;
  before(async () => {
    running = await startApp(context, await filledStore(context, 'memory'));
    await started?.(running);
  });
  return () => {
    assert.ok(running, 'the app is running');
    return running;
  };
}

/**
 * The store with its every read counted (the JSON reads the record routes use, and the parsed ones
 * verification uses), for tests that a refused request reads nothing.
 */
export function countingReads(store: TestStore): { store: TestStore; reads: () => number } {
  let reads = 0;
  const real = store.records;
  const records: RecordReader = {
    ...real,
    lookupJson: (...args) => (reads++, real.lookupJson(...args)),
    searchJson: (...args) => (reads++, real.searchJson(...args)),
    verificationCandidates: (...args) => (reads++, real.verificationCandidates(...args)),
    lookup: (...args) => (reads++, real.lookup(...args)),
    search: (...args) => (reads++, real.search(...args)),
    suggestionCandidates: (...args) => (reads++, real.suggestionCandidates(...args)),
    lookupManyJson: (...args) => (reads++, real.lookupManyJson(...args)),
  };
  return { store: { ...store, ...records, records }, reads: () => reads };
}

/**
 * The audit entries the store's trail holds (for memory, those it keeps), oldest first, once queued ones
 * are written.
 */
export async function trailEntries(store: TestStore): Promise<ChainedEntry[]> {
  await store.audit.flush();
  if (store.kind === 'memory') return [...store.trail.kept()];
  const entries: ChainedEntry[] = [];
  for await (const entry of auditEntries(store.driver)) entries.push(entry);
  return entries;
}

/** The store's audit chain checked from its start: the table's, or the entries a memory trail keeps. */
/**
 * The trail checked as `lev-api audit verify` checks it: the memory store's one chain, or the audit table's
 * writers and checkpoints.
 */
export async function verifyTrail(store: TestStore): Promise<VerifyResult> {
  if (store.kind === 'memory') return verifyEntries(await trailEntries(store));
  await store.audit.flush();
  const result = await verifyAuditChain(store.driver);
  return result.ok ? { ok: true, entries: result.entries } : result;
}

/** Each described record type with its checks, as a load reads entries. */
export const recordTypes = () => records.map(recordType);
