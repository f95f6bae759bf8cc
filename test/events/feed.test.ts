/**
 * The change feed end to end, on the real PostgreSQL server and on the memory store: records
 * loaded through the ingest pipeline, then changed (a correction, a re-registration, a block),
 * reloaded unchanged, a load cut off half way (kill -9 of `lev-api load` on PostgreSQL; a source
 * that breaks on the memory store, whose loads run in the serving process), and two loads at once
 * with a reader following. Then three clients with different roles and subscriptions read the feed
 * over HTTP: each receives exactly its events, in order, once, with no personal data beyond what
 * its subscription and roles allow, and the audit trail names every event and record delivered.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import pg from 'pg';
import { generateRecords } from '../../src/generate/records.ts';
import { type Source, loadSources } from '../../src/load/loader.ts';
import { eventTypes } from '../../src/records/changes.ts';
import type { FeedEvent } from '../../src/model/events.ts';
import {
  TEST_DATABASE_URL,
  type TestStore,
  emptyStore,
  startApp,
  storeKinds,
  testConfig,
  trailEntries,
} from '../helper.ts';
import { builtInType, builtInTypes as records } from '../record-types.ts';

const BIN = fileURLToPath(new URL('../../bin/lev-api.js', import.meta.url));
const ALL = eventTypes(records);

type Json = Record<string, any>;
const death = (id: number, status: Json = {}, extra: Json = {}): Json => ({
  id,
  deceased: {
    forenames: 'Private',
    surname: `Person${id}`,
    dateOfDeath: '2024-03-0' + ((id % 9) + 1),
    dateOfBirth: '1940-01-01',
    causeOfDeath: 'Undisclosed',
  },
  status: { blocked: false, correction: 'None', marginalNote: 'None', ...status },
  ...extra,
});
const birth = (id: number, extra: Json = {}): Json => ({
  id,
  child: { forenames: `Child${id}`, surname: 'Private', dateOfBirth: '2024-01-01' },
  status: { blocked: false, correction: 'None', marginalNote: 'None', cancelled: false },
  ...extra,
});
const marriage = (id: number): Json => ({
  id,
  dateOfMarriage: '2024-05-05',
  groom: { forenames: 'Groom', surname: `Private${id}` },
  bride: { forenames: 'Bride', surname: `Private${id}` },
  status: { blocked: false },
});

/** Records as one NDJSON source, optionally breaking after `breakAfter` of them, or slow (a pause every 20). */
const source = (name: string, entries: readonly Json[], breakAfter?: number, slow = false): Source => ({
  name,
  size: undefined,
  async *open() {
    for (const [i, entry] of entries.entries()) {
      if (i === breakAfter) throw new Error('the load was cut off');
      if (slow && i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      yield `${JSON.stringify(entry)}\n`;
    }
  },
});
const load = (store: TestStore, type: string, entries: readonly Json[], batchSize = 2, slow = false) =>
  loadSources(store.writer, builtInType(type), [source(`${type}s`, entries, undefined, slow)], { batchSize });

const short = (events: readonly FeedEvent[]) =>
  events.map((e) => `${e.type} ${e.recordId}${e.reason ? ` ${e.reason}` : ''}`);

async function readAll(store: TestStore, after = 0): Promise<FeedEvent[]> {
  const all: FeedEvent[] = [];
  for (;;) {
    const page = await store.events.read(after, ALL, 50);
    all.push(...page.events);
    if (page.events.length === 0) return all;
    after = page.next;
  }
}

/** `lev-api load` as a process of its own, killed with SIGKILL once its transaction has written. */
async function killLoadHalfWay(schema: string, file: string): Promise<void> {
  const started = new Date();
  const child: ChildProcess = spawn(process.execPath, [BIN, 'load', '--type', 'birth', '--batch', '500', file], {
    env: { PATH: process.env.PATH, DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema },
    stdio: 'ignore',
  });
  const watcher = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await watcher.connect();
  try {
    // A transaction of the load that has written (it has a transaction id) and is still open.
    let writing = 0;
    for (let tries = 0; tries < 600 && writing === 0; tries++) {
      [{ writing }] = (
        await watcher.query(
          `SELECT count(*)::int AS writing FROM pg_stat_activity
            WHERE application_name = 'lev-api' AND backend_xid IS NOT NULL AND xact_start >= $1 AND query ` +
            `ILIKE 'COPY%'`,
          [started],
        )
      ).rows;
      if (writing === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(writing > 0, "the load's transaction was seen writing");
    // Some batches in.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(child.exitCode, null, 'the load was still running when killed');
    child.kill('SIGKILL');
    await once(child, 'exit');
    // The server notices the dropped connection and rolls its transaction back.
    for (let tries = 0; tries < 200; tries++) {
      const [{ open }] = (
        await watcher.query(
          `SELECT count(*)::int AS open FROM pg_stat_activity WHERE application_name = 'lev-api' AND ` +
            `xact_start >= $1 AND backend_xid IS NOT NULL`,
          [started],
        )
      ).rows;
      if (open === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await watcher.end();
  }
}

for (const kind of await storeKinds()) {
  test(`the change feed end to end (${kind})`, { timeout: 180_000 }, async (t) => {
    const store = await emptyStore(t, kind);
    const expected: string[] = [];

    // New registrations.
    await load(
      store,
      'death',
      [1, 2, 3, 4, 5].map((id) => death(id)),
    );
    await load(
      store,
      'birth',
      [11, 12, 13, 14].map((id) => birth(id)),
    );
    await load(store, 'marriage', [21, 22].map(marriage));
    expected.push(
      ...[1, 2, 3, 4, 5].map((id) => `death.registered ${id}`),
      ...[11, 12, 13, 14].map((id) => `birth.registered ${id}`),
      'marriage.registered 21',
      'marriage.registered 22',
    );

    // A correction and a block, in a reload of every death; a re-registration of birth 11 as 15.
    const deaths = [
      death(1, { correction: 'Clerical error' }),
      death(2, { blocked: true }),
      death(3),
      death(4),
      death(5),
    ];
    await load(store, 'death', deaths);
    const births = [
      birth(11, { nextRegistration: { id: 15 } }),
      birth(12),
      birth(13),
      birth(14),
      birth(15, { previousRegistration: { id: 11 } }),
    ];
    await load(store, 'birth', births);
    expected.push(
      'death.updated 1 corrected',
      'death.updated 2 blocked',
      'birth.updated 11 replaced',
      'birth.registered 15',
    );

    // Unchanged reloads make no event.
    const counts = await load(store, 'death', deaths);
    assert.deepEqual([counts.updated, counts.inserted, counts.unchanged], [0, 0, 5]);
    await load(store, 'birth', births);
    await load(store, 'marriage', [21, 22].map(marriage));
    assert.deepEqual(short(await readAll(store)), expected);

    // A load cut off half way leaves neither records nor events.
    const head = (await store.events.bounds(new Date(0))).head;
    if (kind === 'postgres') {
      const folder = await mkdtemp(join(tmpdir(), 'lev-feed-'));
      t.after(() => rm(folder, { recursive: true, force: true }));
      const file = join(folder, 'births.ndjson');
      const out = createWriteStream(file);
      for (const record of generateRecords('birth', { count: 30_000, seed: 'kill', firstId: 5_000_000 }))
        out.write(`${JSON.stringify(record)}\n`);
      out.end();
      await once(out, 'close');
      await killLoadHalfWay(await schemaOf(store), file);
      assert.equal(await store.lookupJson('birth', '5000000'), undefined);
    } else {
      await assert.rejects(
        loadSources(
          store.writer,
          builtInType('birth'),
          [source('births', [birth(30), birth(31), birth(32), birth(33)], 3)],
          { batchSize: 1 },
        ),
        /cut off/,
      );
      assert.equal(await store.lookupJson('birth', '30'), undefined);
    }
    assert.equal((await store.events.bounds(new Date(0))).head, head);
    assert.deepEqual(short(await readAll(store)), expected);

    // Two loads at once, the first to start committing last, with a reader following the feed.
    const followed: FeedEvent[] = [];
    let following = true;
    const reader = (async () => {
      let after = head;
      while (following || (await store.events.read(after, ALL, 1)).events.length > 0) {
        const page = await store.events.read(after, ALL, 7);
        followed.push(...page.events);
        after = page.next;
        if (page.events.length === 0) await store.events.changed(50);
      }
    })();
    const bigBirths = Array.from({ length: 400 }, (_, i) => birth(1000 + i));
    const fewDeaths = Array.from({ length: 30 }, (_, i) => death(2000 + i));
    const committed: string[] = [];
    await Promise.all([
      load(store, 'birth', bigBirths, 20, true).then(() => committed.push('births')),
      load(store, 'death', fewDeaths, 5).then(() => committed.push('deaths')),
    ]);
    following = false;
    await reader;
    assert.deepEqual(committed, ['deaths', 'births'], 'the load started first committed last');
    const blocks = Object.fromEntries([
      ['births', bigBirths.map((r) => `birth.registered ${r.id}`)],
      ['deaths', fewDeaths.map((r) => `death.registered ${r.id}`)],
    ]);
    // Positions in commit order: each load's events together, the one committed first first.
    const concurrent = committed.flatMap((name) => blocks[name]);
    assert.deepEqual(short(followed), concurrent, 'the reader received every event once, in feed order');
    assert.deepEqual(
      followed.map((e) => e.position),
      concurrent.map((_, i) => head + 1 + i),
      'no position missed or repeated',
    );
    expected.push(...concurrent);
    const truth = await readAll(store);
    assert.deepEqual(short(truth), expected);

    // Three clients, each with its roles and its subscription.
    await store.subscriptions.add({
      client: 'dwp',
      events: ['death.registered', 'death.updated'],
      fields: ['deceased.dateOfDeath', 'deceased.causeOfDeath'],
    });
    await store.subscriptions.add({ client: 'hmrc', events: ['birth.registered', 'death.registered'], fields: [] });
    await store.subscriptions.add({
      client: 'gro',
      events: ['birth.updated', 'death.updated', 'marriage.registered'],
      fields: ['deceased.causeOfDeath', 'child.forenames'],
    });
    const app = await startApp(t, store, testConfig({ AUTH_MODE: 'proxy', TRUSTED_PROXIES: '127.0.0.1' }));
    const clients = {
      dwp: { roles: 'death', types: ['death.registered', 'death.updated'] },
      // death-verify alone reads no death events, whatever the subscription says.
      hmrc: { roles: 'birth,death-verify', types: ['birth.registered'] },
      gro: {
        roles: 'birth,death,marriage,full-details',
        types: ['birth.updated', 'death.updated', 'marriage.registered'],
      },
    } as const;
    const delivered = new Map<string, Json[]>();
    for (const [client, { roles }] of Object.entries(clients)) {
      const events: Json[] = [];
      let after: string | undefined;
      for (;;) {
        const answer = await app.get(`/v1/events?limit=3${after ? `&after=${after}` : ''}`, {
          'x-auth-username': `${client}-system`,
          'x-auth-aud': client,
          'x-auth-roles': roles,
        });
        assert.equal(answer.status, 200, answer.text);
        events.push(...answer.body.events);
        if (answer.body.events.length === 0) break;
        after = answer.body.next;
      }
      delivered.set(client, events);
    }
    for (const [client, { types }] of Object.entries(clients)) {
      const events = delivered.get(client)!;
      const wanted = truth.filter((e) => (types as readonly string[]).includes(e.type));
      assert.deepEqual(
        events.map((e) => e.id),
        wanted.map((e) => String(e.position)),
        `${client}: exactly its events, in order, once`,
      );
      assert.deepEqual(
        events.map((e) => `${e.type} ${e.subject}${e.data.reason ? ` ${e.data.reason}` : ''}`),
        short(wanted),
        client,
      );
    }
    // No personal data but what the subscription names, as the client's roles render it.
    for (const event of delivered.get('hmrc')!)
      assert.deepEqual(Object.keys(event.data).sort(), ['recordId', 'recordType']);
    const dwpFields = Object.fromEntries(delivered.get('dwp')!.map((e) => [`${e.type} ${e.subject}`, e.data.fields]));
    assert.deepEqual(dwpFields['death.registered 1'], {
      'deceased.dateOfDeath': '2024-03-02',
      'deceased.causeOfDeath': null,
    });
    assert.deepEqual(
      dwpFields['death.updated 2'],
      { 'deceased.dateOfDeath': null, 'deceased.causeOfDeath': null },
      'a blocked record shows nothing',
    );
    const gro = delivered.get('gro')!;
    assert.deepEqual(gro.find((e) => e.subject === '1')!.data.fields, { 'deceased.causeOfDeath': 'Undisclosed' });
    assert.deepEqual(gro.find((e) => e.subject === '11')!.data.fields, { 'child.forenames': 'Child11' });
    assert.equal(gro.find((e) => e.type === 'marriage.registered')!.data.fields, undefined);
    for (const event of [...delivered.values()].flat()) {
      const text = JSON.stringify(event);
      assert.doesNotMatch(
        text.replace(/"fields":\{[^}]*\}/, ''),
        /Private|Person|Child|Groom|Bride|1940|2024-0/,
        'personal data only in the fields asked for',
      );
    }

    // The audit trail names every event and record delivered, per client.
    const audited = (await trailEntries(store)).filter((entry) => entry.operation === 'events');
    for (const [client, events] of delivered) {
      const entries = audited.filter((entry) => entry.client === client);
      assert.equal(
        entries.reduce((sum, entry) => sum + entry.results, 0),
        events.length,
        client,
      );
      assert.deepEqual(
        entries.flatMap((entry) => (entry.records ?? []).map((r) => `${r.type} ${r.id}`)).sort(),
        events.map((e) => `${e.data.recordType} ${e.data.recordId}`).sort(),
        client,
      );
      assert.deepEqual(entries.flatMap((entry) => entry.events ?? []).sort(), events.map((e) => e.id).sort(), client);
      // Fields named where the subscription included some of that type's.
      const withFields: readonly string[] = (
        { dwp: ['death'], hmrc: [], gro: ['birth', 'death'] } as Record<string, string[]>
      )[client];
      for (const entry of entries)
        assert.equal(entry.fields !== undefined, withFields.includes(entry.dataset), `${client} ${entry.dataset}`);
    }
  });
}

/** The schema of a test's PostgreSQL store (its connections' search path). */
async function schemaOf(store: TestStore): Promise<string> {
  const [{ schema }] = await (
    store as unknown as { driver: { query: (sql: string) => Promise<{ schema: string }[]> } }
  ).driver.query('SELECT current_schema() AS schema');
  return schema;
}
