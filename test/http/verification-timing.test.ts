/**
 * The time a verification takes does not tell "no such registration" from
 * "a registration whose detail differs": both answers are timed over one real
 * keep-alive socket, on each store, interleaved (AB, BA, AB, …, so drift and
 * the other work on a shared machine fall on both alike). On a busy machine
 * most requests wait for a core, which adds up to milliseconds at random to
 * either answer, and how busy it is changes from second to second. So the
 * samples are taken in short blocks (ten pairs, tens of milliseconds), the
 * fastest of each answer in a block being one that did not wait, and the
 * statistic is the median over blocks of (fastest "no record" − fastest "a
 * detail differs"), with a bootstrap interval over the blocks. The test takes
 * blocks until that interval is narrow enough to see 10 µs. The store's bound is
 * ±10 µs, and on PostgreSQL ±25 µs, since there an answer that decided on a
 * registration names it in its audit entry, which the audit table indexes
 * (docs/verification.md#timing). A measurement beyond the bound, or too noisy,
 * is taken again (ATTEMPTS in all); the test fails when none was precise and
 * within the bound, and skips when all were too noisy (fails under CI=true).
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { test } from 'node:test';
import { CALLER, filledStore, startApp, storeKinds } from '../helper.ts';

/** The difference that must not be visible, in microseconds, by store. */
const BOUND_US = { memory: 10, postgres: 25 } as const;
/** The difference the test must be able to see. */
const RESOLUTION_US = 10;
/**
 * Pairs a block: short enough that the machine is about as busy throughout, long enough that each answer
 * has a fast one.
 */
const BLOCK_PAIRS = 10;
/** Blocks a round; rounds are added until the interval's half width is at most HALF_WIDTH_US. */
const BLOCKS_PER_ROUND = 150;
const MAX_ROUNDS = 8;
const HALF_WIDTH_US = 4;
const WARM_UP = 400;
/** Measurements taken before the test fails (see below). */
const ATTEMPTS = 3;
const BOOTSTRAP_RESAMPLES = 1000;

// Ashworth, Eleanor, 2008-08-08 is the mock's fully filled birth; her mother's maiden surname is Pennington.
const DETAIL_DIFFERS =
  '/v1/verification/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08&motherMaidenSurname=Doyle';
// The same length and shape, a day later: no registration at all.
const NO_RECORD =
  '/v1/verification/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-09&motherMaidenSurname=Doyle';

const median = (sorted: Float64Array) => {
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A small seeded generator (mulberry32): the interval is the same for the same samples. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The median of the blocks' differences, and its 95% percentile-bootstrap interval, resampling blocks. */
function medianInterval(differences: readonly number[]) {
  const next = random(27);
  const sample = new Float64Array(differences.length);
  const medians = new Float64Array(BOOTSTRAP_RESAMPLES);
  for (let r = 0; r < BOOTSTRAP_RESAMPLES; r++) {
    for (let i = 0; i < sample.length; i++) sample[i] = differences[Math.floor(next() * differences.length)];
    medians[r] = median(sample.sort());
  }
  medians.sort();
  return {
    median: median(Float64Array.from(differences).sort()),
    low: medians[Math.floor(BOOTSTRAP_RESAMPLES * 0.025)],
    high: medians[Math.ceil(BOOTSTRAP_RESAMPLES * 0.975) - 1],
  };
}

for (const kind of await storeKinds()) {
  test(`a verification's time does not tell no record from a detail that differs (${kind})`, {
    timeout: 300_000,
  }, async (t) => {
    const running = await startApp(t, await filledStore(t, kind));
    const { hostname, port } = new URL(running.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    t.after(() => agent.destroy());

    /** One request's time in microseconds, from the request's start to its answer's last byte. */
    const timed = (path: string) =>
      new Promise<{ us: number; body: string }>((resolve, reject) => {
        const started = process.hrtime.bigint();
        const req = request({ hostname, port, path, agent, headers: CALLER }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ us: Number(process.hrtime.bigint() - started) / 1000, body }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });

    for (const path of [DETAIL_DIFFERS, NO_RECORD]) assert.equal((await timed(path)).body, '{"verified":false}', path);
    for (let i = 0; i < WARM_UP; i++) await timed(i % 2 ? NO_RECORD : DETAIL_DIFFERS);

    /** One measurement: blocks until the interval is narrow enough, or MAX_ROUNDS. */
    const measure = async () => {
      /** Each block's fastest "no record" less its fastest "a detail differs". */
      const differences: number[] = [];
      let interval = { median: 0, low: -Infinity, high: Infinity };
      let pairs = 0;
      for (let round = 0; round < MAX_ROUNDS && (interval.high - interval.low) / 2 > HALF_WIDTH_US; round++) {
        for (let block = 0; block < BLOCKS_PER_ROUND; block++) {
          let fastestNoRecord = Infinity;
          let fastestDiffers = Infinity;
          for (let i = 0; i < BLOCK_PAIRS; i++, pairs++) {
            // Alternating which goes first: neither always meets a warmer or a busier moment.
            const noRecordFirst = (pairs & 1) === 0;
            const first = await timed(noRecordFirst ? NO_RECORD : DETAIL_DIFFERS);
            const second = await timed(noRecordFirst ? DETAIL_DIFFERS : NO_RECORD);
            const [noRecord, differs] = noRecordFirst ? [first, second] : [second, first];
            fastestNoRecord = Math.min(fastestNoRecord, noRecord.us);
            fastestDiffers = Math.min(fastestDiffers, differs.us);
          }
          differences.push(fastestNoRecord - fastestDiffers);
        }
        interval = medianInterval(differences);
      }
      const said =
        `median over ${differences.length} blocks (${pairs} pairs) of the fastest "no record" less the ` +
        `fastest "a detail differs": ` +
        `${interval.median.toFixed(1)} µs, 95% interval ${interval.low.toFixed(1)} to ${interval.high.toFixed(1)} µs`;
      t.diagnostic(said);
      return { interval, said, noisy: (interval.high - interval.low) / 2 > RESOLUTION_US };
    };

    const bound = BOUND_US[kind];
    // A difference the service makes shows in every measurement; one a shared machine made for a
    // while (another process's burst, the database's own upkeep) does not. So a measurement beyond
    // the bound, or too noisy to judge, is taken again, up to ATTEMPTS times, and the test fails
    // only when none of them was precise and within it.
    const results = [];
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const result = await measure();
      results.push(result);
      const within = result.interval.low <= bound && result.interval.high >= -bound;
      if (within && !result.noisy) return;
    }
    const sure = results.filter((r) => !(r.interval.low <= bound && r.interval.high >= -bound));
    // A difference beyond the bound in every precise measurement fails however noisy the machine.
    assert.ok(
      sure.length < results.length,
      `the answers' times differ by more than ${bound} µs: ${results.map((r) => r.said).join('; ')}`,
    );
    // Too busy a machine to tell 10 µs: as a missing server is (test/helper.ts), a skip here and a failure in CI.
    const message = `too noisy to see ${RESOLUTION_US} µs: ${results.map((r) => r.said).join('; ')}`;
    assert.notEqual(process.env.CI, 'true', message);
    t.skip(message);
  });
}
