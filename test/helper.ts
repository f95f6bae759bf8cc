/**
 * Test harness: stores on both drivers, and the app over a real socket.
 * The PostgreSQL store runs where a server answers (CI has one at
 * 127.0.0.1:5432); each store gets a schema of its own, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { type TestContext, after, before } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import type { StoredRecord } from '../src/store/record-store.ts';
import { loadInto, mockDataset, recordTypes } from '../src/store/open-store.ts';
import { openPostgres } from '../src/store/pg-driver.ts';
import { openEmbedded } from '../src/store/pglite-driver.ts';
import { migrate } from '../src/store/migrations.ts';
import { type RecordStore, createRecordStore } from '../src/store/record-store.ts';
import { records } from '../src/records/index.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<boolean> | undefined;
/** Whether the PostgreSQL server for tests answers. */
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
  return reachable;
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let redisReachable: Promise<boolean> | undefined;
/** Whether the Redis server for tests answers a PING within a second (CI has one at 127.0.0.1:6379). */
export function redisAvailable(): Promise<boolean> {
  redisReachable ??= (async () => {
    const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 1000, commandTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
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
  return redisReachable;
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

export type StoreKind = 'embedded' | 'postgres';

/** The store kinds to run a contract against: always embedded, and postgres where a server answers. */
export async function storeKinds(): Promise<StoreKind[]> {
  return (await postgresAvailable()) ? ['embedded', 'postgres'] : ['embedded'];
}

export const uniqueSchema = () => `test_${randomBytes(6).toString('hex')}`;

/** An empty store with the schema applied; closed (and its schema dropped) when the test ends. */
export async function emptyStore(t: Pick<TestContext, 'after'>, kind: StoreKind): Promise<RecordStore> {
  if (kind === 'embedded') {
    const driver = await openEmbedded();
    await migrate(driver);
    const store = createRecordStore(driver, records);
    t.after(() => store.close());
    return store;
  }
  let store: RecordStore | undefined;
  const { schema } = await emptySchema(t, () => store?.close());
  // Named after its schema, so a test that kills connections kills only its own.
  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 4, statementTimeoutMs: 10_000, applicationName: schema });
  await migrate(driver);
  store = createRecordStore(driver, records);
  return store;
}

/**
 * A new, empty PostgreSQL schema, dropped when the test ends, after `closeFirst`
 * (the test's own connections into it). `admin` is a connection outside it.
 */
export async function emptySchema(t: Pick<TestContext, 'after'>, closeFirst?: () => unknown) {
  const schema = uniqueSchema();
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  t.after(async () => {
    await closeFirst?.();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });
  return { schema, admin };
}

/** A store holding the built-in mock dataset, or the given records. */
export async function filledStore(
  t: Pick<TestContext, 'after'>,
  kind: StoreKind,
  dataset: Map<string, StoredRecord[]> = mockDataset(recordTypes()),
): Promise<RecordStore> {
  const store = await emptyStore(t, kind);
  await loadInto(store, dataset);
  return store;
}

export interface RunningApp {
  /** http://127.0.0.1:port, or https:// when the configuration has TLS settings. */
  readonly url: string;
  readonly app: Awaited<ReturnType<typeof buildApp>>;
  /** GET over HTTP (not HTTPS: see test/auth/pki.ts for that) with the mock identity headers (override or drop them with `headers`). */
  get(path: string, headers?: Record<string, string | undefined>): Promise<{ status: number; headers: Headers; body: any; text: string }>;
}

export const CALLER = { 'x-auth-username': 'test-user', 'x-auth-aud': 'test-client' } as const;
export const FULL_DETAILS = { ...CALLER, 'x-auth-roles': 'full-details' } as const;

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', ...env });
}

/** The app listening on a real loopback socket; closed when the test ends. */
export async function startApp(
  t: Pick<TestContext, 'after'>,
  store: RecordStore,
  config: Config = testConfig(),
  logger?: Parameters<typeof buildApp>[1]['logger'],
): Promise<RunningApp> {
  const app = await buildApp(config, { store, logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(() => app.close());
  const address = app.server.address();
  const url = `${config.tls ? 'https' : 'http'}://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    app,
    async get(path, headers = CALLER) {
      const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
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
 * The app on the built-in mock (embedded store), started once before the calling file's tests;
 * `started` runs right after, for fixtures that need the running app.
 */
export function sharedApp(started?: (app: RunningApp) => Promise<void>): () => RunningApp {
  const context = suiteContext();
  let running: RunningApp | undefined;
  before(async () => {
    running = await startApp(context, await filledStore(context, 'embedded'));
    await started?.(running);
  });
  return () => {
    assert.ok(running, 'the app is running');
    return running;
  };
}
