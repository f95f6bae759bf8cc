/**
 * The app tells the trail which audited requests are in progress (`AuditTrail.expect`), so that a
 * trail that lingers can gather them into one group: a lookup's entry waits for another lookup
 * still reading, and goes with it; a request that ends without an entry (a 404, a 400) stops
 * being waited for, so nothing is held back by it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { batchPerTurn } from '../../src/audit/trail.ts';
import type { AuditEntry } from '../../src/model/audit.ts';
import { filledStore, startApp } from '../helper.ts';

const LINGER_MS = 1500;

test('a group waits for the audited requests in progress, and for none that ended without an entry', async (t) => {
  const store = await filledStore(t, 'memory');
  const writes: string[][] = [];
  const trail = batchPerTurn(async (entries: readonly AuditEntry[]) => void writes.push(entries.map((e) => e.path)), {
    lingerMs: LINGER_MS,
  });
  // The first lookup of birth 123456789 is held in the store until released.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const records = new Proxy(store.records, {
    get(target, name) {
      const value = Reflect.get(target, name) as unknown;
      if (name === 'lookupJson') {
        return async (...args: unknown[]) => {
          if (args[0] === 'birth' && args[1] === '123456789' && calls++ === 0) await held;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const app = await startApp(t, { ...store, records, audit: trail });

  // Requests that end without an entry are not waited for.
  assert.equal((await app.get('/v1/registration/birth/999999999')).status, 404);
  assert.equal((await app.get('/v1/registration/birth/12x')).status, 400);
  const started = performance.now();
  assert.equal((await app.get('/v1/registration/death/123456789')).status, 200);
  assert.ok(performance.now() - started < LINGER_MS / 2, 'nothing in progress: the entry went at once');
  assert.deepEqual(writes, [['/v1/registration/death/123456789']]);

  // One lookup held while reading; another's entry waits for it and goes in the same group.
  const slow = app.get('/v1/registration/birth/123456789');
  while (calls === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const quick = app.get('/v1/registration/birth/123456789');
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(writes.length, 1, 'the second entry waits for the lookup in progress');
  release();
  assert.deepEqual([(await slow).status, (await quick).status], [200, 200]);
  assert.deepEqual(writes.slice(1), [['/v1/registration/birth/123456789', '/v1/registration/birth/123456789']]);
});
