/**
 * How many promises a lookup and a search make, on each store. Once tracing is on, Node 20 calls
 * a hook at every promise the process makes, sampled request or not (docs/performance.md#tracing),
 * so a request's promises are what tracing costs it before a span is made; each async wrapper
 * added on the request's path shows here. The counts are of requests sent one after another, so
 * that each one's audit entry and store read are a batch of their own, as at a moderate rate.
 */
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import http from 'node:http';
import { test } from 'node:test';
import { CALLER, filledStore, startApp, storeKinds } from '../helper.ts';

/** At most this many a request (measured: memory 15 and 15, PostgreSQL 21 and 21). */
const AT_MOST = { memory: 15, postgres: 21 } as const;

const LOOKUP = '/v1/registration/birth/123456789';
const SEARCH = '/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08';

let counting = false;
let made = 0;
const hook = createHook({
  init(_id, type) {
    if (counting && type === 'PROMISE') made++;
  },
});

/** The promises the process makes while `path` is answered: a callback client, which makes none itself. */
function promisesOf(url: string, path: string): Promise<{ status: number; promises: number }> {
  return new Promise((resolve, reject) => {
    // From the next tick: not the caller's own `await` of this promise.
    process.nextTick(() => {
      made = 0;
      counting = true;
      http
        .get(`${url}${path}`, { headers: CALLER }, (response) => {
          response.resume();
          response.on('end', () => {
            counting = false;
            resolve({ status: response.statusCode ?? 0, promises: made });
          });
        })
        .on('error', reject);
    });
  });
}

/** Until the process makes no promise for a tenth of a second: the app's schemas compiled once it listens. */
async function quiet() {
  for (let tries = 0; tries < 100; tries++) {
    const { promises } = await new Promise<{ promises: number }>((resolve) =>
      process.nextTick(() => {
        made = 0;
        counting = true;
        setTimeout(() => {
          counting = false;
          resolve({ promises: made });
        }, 100);
      }),
    );
    if (promises === 0) return;
  }
  assert.fail('the process never stopped making promises');
}

for (const kind of await storeKinds()) {
  test(`a lookup and a search on the ${kind} store make at most ${AT_MOST[kind]} promises each`, async (t) => {
    const app = await startApp(t, await filledStore(t, kind));
    hook.enable();
    t.after(() => hook.disable());
    await quiet();
    for (const path of [LOOKUP, SEARCH]) {
      // Warmed up first: the pool's connections opened, the statements prepared.
      for (let i = 0; i < 20; i++) await promisesOf(app.url, path);
      const counts: number[] = [];
      for (let i = 0; i < 21; i++) {
        const { status, promises } = await promisesOf(app.url, path);
        assert.equal(status, 200);
        counts.push(promises);
      }
      const median = counts.sort((a, b) => a - b)[10];
      assert.ok(median <= AT_MOST[kind], `${path} on ${kind}: ${median} promises a request (${counts.join(' ')})`);
    }
  });
}
