/**
 * GET /v1/suggestions/{type} over HTTP, on every store: each kind of close match found first from
 * the mock's scenarios, records rendered as a lookup renders them for the caller, the floor, the
 * limit and truncation, bad input, the role matrix, the audit trail naming the records returned,
 * and the rate limit.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Writable } from 'node:stream';
import pino from 'pino';
import { MATCH_KINDS } from '../../src/match/vocabulary.ts';
import { AUDIENCE, startIssuer } from '../auth/issuer.ts';
import {
  CALLER,
  FULL_DETAILS,
  type TestStore,
  countingReads,
  filledStore,
  startApp,
  storeKinds,
  suiteContext,
  testConfig,
  trailEntries,
} from '../helper.ts';
import { closeMatchScenarios } from '../record-types.ts';

interface Candidate {
  score: number;
  matched: Record<string, string>;
  weights: Record<string, number>;
  record: { id: number; [field: string]: unknown };
}
interface Answer {
  candidates: Candidate[];
  truncated: boolean;
}

const closeMatches = closeMatchScenarios.map((s) => ({ id: s.id, type: s.type, shows: s.shows, ...s.suggestion }));
const path = (type: string, query: Record<string, string>) => `/v1/suggestions/${type}?${new URLSearchParams(query)}`;
const ELLIE = { surname: 'Ashworth', forenames: 'Ellie', dateOfBirth: '2008-08-08' };

test('the mock has a close-match scenario for every kind of match but "different"', () => {
  const shown = new Set(closeMatches.flatMap((c) => Object.values(c.matched)));
  assert.deepEqual(
    MATCH_KINDS.filter((kind) => kind !== 'different' && !shown.has(kind)),
    [],
  );
});

// On each store, with close matches found on the event loop and on a thread of their own ('service':
// on PostgreSQL, with indexes held in the service rather than its key tables).
const variants = (await storeKinds()).flatMap((kind) =>
  (['database', 'service'] as const).map((index) => ({ kind, index })),
);
for (const { kind, index } of variants) {
  describe(`close matches (${kind}${index === 'service' ? ', on the close-match thread' : ''})`, async () => {
    const context = suiteContext();
    const store: TestStore = await filledStore(context, kind, undefined, index);
    const app = await startApp(context, store);

    if (index === 'service' && kind === 'postgres') {
      test('/metrics says the indexes are built, and how far along the change feed', async () => {
        const { text } = await app.get('/metrics');
        assert.match(text, /^lev_suggestion_index_built 1$/m);
        const head = (await store.events.bounds(new Date(0))).head;
        assert.ok(head > 0);
        assert.match(text, new RegExp(`^lev_suggestion_index_position ${head}$`, 'm'));
      });
    }

    for (const scenario of closeMatches) {
      test(`${scenario.type} ${scenario.id}: ${scenario.shows}`, async () => {
        const { status, body } = await app.get(path(scenario.type, scenario.query));
        assert.equal(status, 200);
        const { candidates } = body as Answer;
        assert.equal(
          candidates[0]?.record.id,
          scenario.id,
          JSON.stringify(candidates.map((c) => [c.record.id, c.score, c.matched])),
        );
        assert.deepEqual(candidates[0].matched, scenario.matched);
        assert.ok(candidates[0].score <= 1 && candidates[0].score >= 0.001, `${candidates[0].score}`);
        assert.deepEqual(Object.keys(candidates[0].weights), Object.keys(scenario.matched), 'a weight for each detail');
        const scores = candidates.map((c) => c.score);
        assert.deepEqual(
          scores,
          [...scores].sort((a, b) => b - a),
          'best first',
        );
      });
    }

    test('the exact details score 1, every detail exact, first', async () => {
      const { body } = await app.get(
        path('birth', { surname: 'Ashworth', forenames: 'Eleanor Rose', dateOfBirth: '2008-08-08' }),
      );
      const [first] = (body as Answer).candidates;
      assert.deepEqual(
        [first.record.id, first.score, first.matched],
        [123456789, 1, { surname: 'exact', forenames: 'exact', dateOfBirth: 'exact' }],
      );
    });

    test('the same query gives the same answer, byte for byte', async () => {
      const query = path('birth', { surname: 'Marsdon', forenames: 'George', dateOfBirth: '2010-03-14', limit: '10' });
      assert.equal((await app.get(query)).text, (await app.get(query)).text);
    });

    test(
      'records are rendered as a lookup renders them for ' + 'the caller; a blocked one shows only its id and flag',
      async () => {
        for (const headers of [CALLER, FULL_DETAILS]) {
          const { body } = await app.get(path('birth', ELLIE), headers);
          const lookup = await app.get('/v1/registration/birth/123456789', headers);
          assert.deepEqual((body as Answer).candidates[0].record, lookup.body);
        }
        const { body } = await app.get(
          path('birth', { surname: 'Carow', forenames: 'Felix', dateOfBirth: '2005-11-02' }),
        );
        const [blocked] = (body as Answer).candidates;
        assert.equal(blocked.record.id, 999999020);
        assert.deepEqual(blocked.record, (await app.get('/v1/registration/birth/999999020')).body);
        assert.equal((blocked.record.child as { surname: unknown }).surname, null);
      },
    );

    test('limit caps the candidates (5 by default); truncated says more reached the floor', async () => {
      const marsden = { surname: 'Marsden', forenames: 'George', dateOfBirth: '2010-03-14' };
      const all = (await app.get(path('birth', marsden))).body as Answer;
      assert.deepEqual(
        all.candidates.map((c) => c.record.id).slice(0, 3),
        [999999001, 999999002, 999999003],
        'equal scores by system number',
      );
      assert.equal(all.truncated, false);
      const one = (await app.get(path('birth', { ...marsden, limit: '1' }))).body as Answer;
      assert.deepEqual([one.candidates.map((c) => c.record.id), one.truncated], [[999999001], true]);
    });

    test('nothing close enough gives no candidates', async () => {
      const { status, body } = await app.get(
        path('birth', { surname: 'Zzyzx', forenames: 'Quill', dateOfBirth: '1901-01-01' }),
      );
      assert.deepEqual([status, body], [200, { candidates: [], truncated: false }]);
    });

    test("bad input is a 400 naming the parameter; the exact search's parameters are required", async () => {
      const cases: [Record<string, string>, RegExp][] = [
        [{ surname: 'Ashworth', dateOfBirth: '2008-08-08' }, /'forenames'/],
        [{ surname: 'Ashworth', forenames: 'Eleanor' }, /'dateOfBirth'/],
        [{ forenames: 'Eleanor', dateOfBirth: '2008-08-08' }, /'surname'/],
        [{ ...ELLIE, dateOfBirth: '2008-13-01' }, /'dateOfBirth'/],
        [{ ...ELLIE, surname: '--' }, /'surname'/],
        [{ ...ELLIE, limit: '0' }, /'limit'.*1 to 10/],
        [{ ...ELLIE, limit: '11' }, /'limit'/],
        [{ ...ELLIE, limit: 'five' }, /'limit'/],
      ];
      for (const [query, message] of cases) {
        const { status, body } = await app.get(path('birth', query));
        assert.equal(status, 400, JSON.stringify(query));
        assert.equal((body as { code: string }).code, 'BadRequest');
        assert.match((body as { message: string }).message, message);
      }
    });

    test('each answer is audited before it is sent, operation suggest, naming the records returned', async () => {
      const before = (await trailEntries(store)).length;
      const response = await app.get(
        path('birth', { surname: 'Marsden', forenames: 'George', dateOfBirth: '2010-03-14', limit: '2' }),
      );
      const requestId = response.headers.get('x-request-id');
      const entries = await trailEntries(store);
      const entry = entries.find((e) => e.requestId === requestId);
      assert.ok(entry, 'the answer is in the trail');
      assert.equal(entries.length > before, true);
      assert.deepEqual(
        [entry.operation, entry.dataset, entry.results, entry.path],
        ['suggest', 'birth', 2, '/v1/suggestions/birth'],
      );
      assert.deepEqual(entry.records, [
        { type: 'birth', id: 999999001 },
        { type: 'birth', id: 999999002 },
      ]);
      const bad = await app.get(path('birth', { surname: 'Ashworth' }));
      assert.equal(bad.status, 400);
      assert.ok(
        !(await trailEntries(store)).some((e) => e.requestId === bad.headers.get('x-request-id')),
        'bad input is not audited',
      );
    });
  });
}

describe('who may ask for close matches', () => {
  const context = suiteContext();
  const headers = (roles?: string) => ({ ...CALLER, 'x-auth-roles': roles });

  test('plain mock: any identified caller; no identity is a 401', async () => {
    const app = await startApp(context, await filledStore(context, 'memory'));
    assert.equal((await app.get(path('birth', ELLIE))).status, 200);
    assert.equal((await app.get(path('birth', ELLIE), {} as typeof CALLER)).status, 401);
  });

  for (const [mode, env, extra] of [
    ['mock with MOCK_ENFORCE_ROLES', { MOCK_ENFORCE_ROLES: 'true' }, {}],
    ['proxy', { AUTH_MODE: 'proxy', TRUSTED_PROXIES: '127.0.0.1' }, {}],
  ] as const) {
    test(`${mode}: the suggest role and the dataset's role, both; refused callers read nothing`, async () => {
      const counted = countingReads(await filledStore(context, 'memory'));
      const app = await startApp(context, counted.store, testConfig(env));
      const matrix: [string | undefined, number][] = [
        [undefined, 403],
        ['birth', 403],
        ['suggest', 403],
        ['suggest,death', 403],
        ['birth-verify,suggest', 403],
        ['suggest,birth', 200],
        ['birth,suggest,full-details', 200],
      ];
      for (const [roles, status] of matrix) {
        const before = counted.reads();
        const response = await app.get(path('birth', ELLIE), { ...headers(roles), ...extra } as typeof CALLER);
        assert.equal(response.status, status, `${roles}: ${response.text}`);
        if (status === 403) {
          assert.equal(counted.reads(), before, `${roles}: nothing read`);
          assert.match((response.body as { message: string }).message, /'(suggest|birth)' role/);
        }
      }
    });
  }

  test("oidc: the token must carry the suggest role and the dataset's", async () => {
    const issuer = await startIssuer();
    context.after(() => issuer.close());
    const app = await startApp(
      context,
      await filledStore(context, 'memory'),
      testConfig({ AUTH_MODE: 'oidc', OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: AUDIENCE }),
    );
    for (const [roles, status] of [
      [['birth'], 403],
      [['suggest'], 403],
      [['birth', 'suggest'], 200],
    ] as const) {
      const token = await issuer.sign({ realm_access: { roles } });
      const response = await app.get(path('birth', ELLIE), {
        authorization: `Bearer ${token}`,
      } as unknown as typeof CALLER);
      assert.equal(response.status, status, `${roles.join(',')}: ${response.text}`);
    }
  });

  test('close matches count against the rate limit', async () => {
    const app = await startApp(
      context,
      await filledStore(context, 'memory'),
      testConfig({ RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '2' }),
    );
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.get(path('birth', ELLIE))).status);
    assert.deepEqual(statuses, [200, 200, 429]);
  });

  test(
    'close matches finding nothing likely count in the watch on enumeration, with verifications, without ' +
      'what was asked',
    async () => {
      const lines: string[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(...chunk.toString().split('\n').filter(Boolean));
            done();
          },
        }),
      );
      const config = testConfig({
        VERIFY_FALSE_SHARE_THRESHOLD: '0.5',
        VERIFY_FALSE_SHARE_MIN_COUNT: '6',
        VERIFY_FALSE_SHARE_WINDOW_S: '600',
      });
      const app = await startApp(context, await filledStore(context, 'memory'), config, logger);
      const warned = () => lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
      const honest = { ...CALLER, 'x-auth-aud': 'honest-client' };
      for (let i = 0; i < 8; i++) assert.equal((await app.get(path('birth', ELLIE), honest)).status, 200);
      assert.equal(warned().length, 0, 'the registration found: no alarm');

      const prober = { ...CALLER, 'x-auth-aud': 'prober-client' };
      const guesses = ['Quillfeather', 'Zebedee', 'Ormsby', 'Pettigrew', 'Vanstone', 'Wigglesworth'];
      for (const [i, surname] of guesses.entries()) {
        const { body } = await app.get(
          path('birth', { surname, forenames: 'Wilhelmina', dateOfBirth: `1931-02-0${i + 1}` }),
          prober,
        );
        assert.ok(!(body as Answer).candidates.some((c) => c.score >= 0.9), 'a guess finds nothing likely');
        // Judged only from the sixth answer on (VERIFY_FALSE_SHARE_MIN_COUNT).
        assert.equal(warned().length, i + 1 < 6 ? 0 : 1, `after ${i + 1} answers`);
      }
      const [alarm] = warned();
      assert.deepEqual([alarm.client, alarm.dataset], ['prober-client', 'birth']);
      for (const asked of [...guesses, 'Wilhelmina', '1931-02-0'])
        assert.ok(!lines.some((line) => line.includes(asked)), `no log line holds ${asked}`);
      const metrics = (await app.get('/metrics')).text;
      assert.match(metrics, /^lev_verification_false_share_alarms_total\{dataset="birth"\} 1$/m);
    },
  );

  test('SUGGEST_MIN_PROBABILITY is the floor under which no candidate is returned', async () => {
    const app = await startApp(
      context,
      await filledStore(context, 'memory'),
      testConfig({ SUGGEST_MIN_PROBABILITY: '1' }),
    );
    const { body } = await app.get(path('birth', { ...ELLIE, dateOfBirth: '2008-08-09' }));
    assert.deepEqual(body, { candidates: [], truncated: false });
    const exact = (await app.get(path('birth', { ...ELLIE, forenames: 'Eleanor Rose' }))).body as Answer;
    assert.equal(exact.candidates[0].score, 1);
  });
});
