/**
 * A load holds nothing a record for the whole file: the loader's live heap after 300,000 births is
 * what it was after 50,000, with the ids given kept in PostgreSQL (the real table, on a connection
 * of its own). The same measure, with the ids kept in this process's map as the embedded store
 * keeps them, sees them grow: the measure can fail.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type Source, loadSources } from '../../src/load/loader.ts';
import { openLoadIds } from '../../src/store/postgres-load-ids.ts';
import type { RecordWriter } from '../../src/model/store.ts';
import { emptyStore, storeKinds } from '../helper.ts';
import { builtInType } from '../record-types.ts';
import { births } from './load-fixture.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const RECORDS = 300_000;
const EARLY = 50_000;
/** Small batches, so that what is in flight when the heap is measured varies by little. */
const BATCH = 500;
/** The ids and positions of 250,000 records take some 8 MB in a map. */
const MAX_GROWTH_MB = 3;

/** `RECORDS` births as NDJSON, made as they are read: the mock's, with ids from 1. */
const generated: Source = {
  name: 'generated.ndjson',
  size: undefined,
  *open() {
    const templates = births(50).map((record) => JSON.stringify({ ...record, id: 0 }).replace('"id":0', '"id":ID'));
    for (let from = 1; from <= RECORDS; from += 1000) {
      const lines: string[] = [];
      for (let id = from; id < from + 1000; id++)
        lines.push(templates[id % templates.length].replace('ID', String(id)));
      yield lines.join('\n') + '\n';
    }
  },
};

/** Loads `generated` through a writer that keeps nothing; the live heap (MB) early on and near the end. */
async function liveHeap(loadIds: RecordWriter['loadIds']): Promise<{ early: number; late: number }> {
  const live = () => (gc(), gc(), process.memoryUsage().heapUsed / 2 ** 20);
  let early = 0;
  let late = 0;
  const writer: RecordWriter = {
    async write(_type, batches) {
      let seen = 0;
      for await (const batch of batches) {
        seen += batch.length;
        if (seen === EARLY) early = live();
        if (seen === RECORDS - 10 * BATCH) late = live();
      }
      return { inserted: seen, updated: 0, unchanged: 0 };
    },
    loadIds,
  };
  const result = await loadSources(writer, builtInType('birth'), [generated], { batchSize: BATCH });
  assert.equal(result.inserted, RECORDS);
  return { early, late };
}

test('the ids a load has given are not kept in its memory', async (t) => {
  if (!(await storeKinds()).includes('postgres')) return t.skip('no PostgreSQL server');
  const store = await emptyStore(t, 'postgres');
  assert.ok(store.kind === 'postgres');
  const { early, late } = await liveHeap(() => openLoadIds(store.driver));
  assert.ok(late - early < MAX_GROWTH_MB, `the live heap grew from ${early.toFixed(1)} to ${late.toFixed(1)} MB`);
});

test('kept in a map, as the embedded store keeps them, they are seen to grow', async () => {
  const { early, late } = await liveHeap(undefined);
  assert.ok(late - early > 2 * MAX_GROWTH_MB, `the live heap grew from ${early.toFixed(1)} to ${late.toFixed(1)} MB`);
});
