/**
 * The service built with a fifth record type described only in a test fixture
 * (test/fixtures/testfixture/): its description, its scenario file and its migration. The list of
 * types is passed in, so the type is served (lookup and search over HTTP), searched by close
 * matches, verified, generated, given mock records, shown on the pages and described in the
 * OpenAPI document, with no edit anywhere else. On both stores: on PostgreSQL its tables are made
 * by the fixture's own migration, applied after the built-in ones.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ServiceTypes, loadMock } from '../../src/backend/open.ts';
import { loadMigrations } from '../../src/store/migrations.ts';
import { recordType } from '../../src/load/conversion.ts';
import { generateRecords, searchSample } from '../../src/generate/records.ts';
import { loadSources } from '../../src/load/loader.ts';
import { FULL_ID, mockRecords } from '../../src/mock/dataset.ts';
import { leavesOf, readPath } from '../../src/records/define.ts';
import { testfixture } from '../fixtures/testfixture/description.ts';
import { fixtureScenarios } from '../fixtures/testfixture/scenarios.ts';
import { fixtureMigration } from '../fixtures/testfixture/migration.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../src/webhooks/start.ts';
import { SETTINGS, startReceiver, until } from '../webhooks/receiver.ts';
import { CALLER, FULL_DETAILS, emptyStore, startApp, storeKinds, suiteContext, testConfig, onEnd } from '../helper.ts';
import { builtInScenarios, builtInTypes } from '../record-types.ts';

const migrations = await loadMigrations();

const types: ServiceTypes = {
  descriptions: [...builtInTypes, testfixture],
  scenarios: [...builtInScenarios, fixtureScenarios],
};
const FIXTURE = { ...CALLER, 'x-auth-roles': 'testfixture' };
const FIXTURE_FULL = { ...FULL_DETAILS, 'x-auth-roles': 'testfixture,full-details' };
const GENERATED_FIRST_ID = 500_000_000;
const PUSHED_FIRST_ID = 600_000_000;

for (const kind of await storeKinds())
  describe(`a fifth record type described only in a test fixture, on the ${kind} store`, async () => {
    const t = suiteContext();
    const backend = await emptyStore(t, kind, {
      descriptions: types.descriptions,
      migrations: [...migrations, fixtureMigration],
    });
    await loadMock(backend.writer, types);
    const generated = [
      ...generateRecords(testfixture, { count: 200, seed: 'fifth type', firstId: GENERATED_FIRST_ID }),
    ];
    await loadSources(backend.writer, testfixture, [
      {
        name: 'generated test fixture records',
        size: undefined,
        open: () => [generated.map((r) => JSON.stringify(r)).join('\n')],
      },
    ]);
    const app = await startApp(t, backend, testConfig(), undefined, types.descriptions);

    test('its mock records are made from its scenario file, the first with every field filled', () => {
      const records = mockRecords(types.descriptions, types.scenarios).testfixture as Record<string, unknown>[];
      assert.deepEqual(
        records.map((r) => r.id),
        fixtureScenarios.scenarios.map((s) => s.id),
      );
      const full = records.find((r) => r.id === FULL_ID)!;
      for (const { path } of leavesOf(testfixture.fields))
        assert.notEqual(readPath(full, path), null, `${path} is filled`);
      assert.equal(full.court, 'Kestlewick Family Court');
      // Dates that follow another are made from the scenario's own date, not from one it replaced.
      for (const record of records) {
        assert.ok(
          (readPath(record, 'dateOfOrder') as string) > (readPath(record, 'child.dateOfBirth') as string),
          `record ${record.id}: the order after the birth`,
        );
        assert.ok(
          (readPath(record, 'date') as string) > (readPath(record, 'dateOfOrder') as string),
          `record ${record.id}: the entry after the order`,
        );
      }
    });

    test('a lookup serves it, redacted by its description', async () => {
      const full = await app.get(`/v1/registration/testfixture/${FULL_ID}`, FIXTURE_FULL);
      assert.equal(full.status, 200, full.text);
      const body = full.body as Record<string, any>;
      assert.equal(body.child.surname, 'Fenwick');
      assert.equal(body.court, 'Kestlewick Family Court');
      assert.equal(typeof body.child.birthplace, 'string');
      const basic = (await app.get(`/v1/registration/testfixture/${FULL_ID}`, FIXTURE)).body as Record<string, any>;
      assert.equal(basic.child.birthplace, null, 'a field not marked basic needs full-details');
      const blocked = (await app.get('/v1/registration/testfixture/999999020', FIXTURE_FULL)).body as Record<
        string,
        any
      >;
      assert.deepEqual([blocked.status.blocked, blocked.child.surname], [true, null]);
    });

    test('a search finds it by its party, and the generated records by their own details', async () => {
      const found = await app.get(
        '/v1/registration/testfixture?surname=Fenwick&forenames=Rosalind&dateOfBirth=2012-05-14',
        FIXTURE,
      );
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(
        (found.body as { id: number }[]).map((r) => r.id),
        [FULL_ID],
      );
      const samples = searchSample(testfixture, { count: 200, seed: 'fifth type', firstId: GENERATED_FIRST_ID }, 10);
      assert.ok(samples.some((s) => s.expectId !== null));
      for (const { query, expectId } of samples) {
        const answer = await app.get(
          `/v1/registration/testfixture?${new URLSearchParams(query as Record<string, string>)}`,
          FIXTURE,
        );
        assert.equal(answer.status, 200, answer.text);
        const ids = (answer.body as { id: number }[]).map((r) => r.id);
        if (expectId === null) assert.deepEqual(ids, [], JSON.stringify(query));
        else assert.ok(ids.includes(expectId), `${JSON.stringify(query)} finds ${expectId}`);
      }
    });

    test('close matches find it by the suggestion its scenario gives', async () => {
      const { suggestion } = fixtureScenarios.scenarios[0];
      const answer = await app.get(
        `/v1/suggestions/testfixture?${new URLSearchParams(suggestion!.query as Record<string, string>)}`,
        FIXTURE,
      );
      assert.equal(answer.status, 200, answer.text);
      const [first] =
        (answer.body as { candidates?: { record: { id: number }; matched: Record<string, string> }[] }).candidates ??
        (answer.body as never[]);
      assert.ok(first, answer.text);
      assert.equal((first as { record: { id: number } }).record.id, FULL_ID, answer.text);
    });

    test('a verification matches its details, and a detail that differs does not', async () => {
      const match = await app.get(
        '/v1/verification/testfixture?surname=Fenwick&forenames=Rosalind&dateOfBirth=2012-05-14' +
          '&court=Kestlewick%20Family%20Court',
        FIXTURE,
      );
      assert.equal(match.status, 200, match.text);
      assert.equal((match.body as { verified: boolean }).verified, true, match.text);
      const differs = await app.get(
        '/v1/verification/testfixture?surname=Fenwick&forenames=Rosalind&dateOfBirth=2012-05-14&court=Halsworth',
        FIXTURE,
      );
      assert.equal((differs.body as { verified: boolean }).verified, false, differs.text);
    });

    test('generated records are complete and storable', () => {
      const stored = recordType(testfixture);
      for (const record of generated) {
        const result = stored.toStored(record);
        assert.ok(!('reason' in result), `record ${record.id}: ${'reason' in result ? result.reason : ''}`);
        assert.ok((readPath(record, 'date') as string) > (readPath(record, 'dateOfOrder') as string));
        assert.ok((readPath(record, 'dateOfOrder') as string) > (readPath(record, 'child.dateOfBirth') as string));
      }
    });

    test('the OpenAPI document describes its routes and its schema', async () => {
      const document = (await app.get('/openapi.json')).body as {
        paths: Record<string, unknown>;
        components: { schemas: Record<string, unknown> };
      };
      for (const path of [
        '/v1/registration/testfixture',
        '/v1/registration/testfixture/{id}',
        '/v1/verification/testfixture',
        '/v1/suggestions/testfixture',
      ]) {
        assert.ok(document.paths[path], `${path} is documented`);
      }
      assert.ok(document.components.schemas.TestfixtureV1);
    });

    test('webhook delivery pushes its events, their fields rendered by its description', async (t) => {
      const receiver = await startReceiver(t);
      await backend.subscriptions.add({
        client: 'fifth-type-hook',
        events: ['testfixture.registered'],
        fields: ['court'],
        roles: ['testfixture'],
      });
      await backend.webhooks.setEndpoint('fifth-type-hook', { url: receiver.url }, { secret: newSecret() });
      const delivery = startConfiguredDelivery(
        SETTINGS,
        backend,
        types.descriptions,
        { info() {}, warn() {} },
        undefined,
        { pollMs: 50 },
      );
      onEnd(t, () => delivery.stop());
      const record = [...generateRecords(testfixture, { count: 20, seed: 'pushed', firstId: PUSHED_FIRST_ID })].find(
        (r) => readPath(r, 'status.blocked') === false,
      )!;
      await loadSources(backend.writer, testfixture, [
        { name: 'one pushed record', size: undefined, open: () => [JSON.stringify(record)] },
      ]);
      const pushed = () =>
        receiver.received
          .map((r) => JSON.parse(r.body) as Record<string, any>)
          .find((event) => Number(event.subject) === record.id);
      await until(() => pushed() !== undefined, 'the pushed record');
      assert.equal(pushed()!.type, 'testfixture.registered');
      assert.deepEqual(pushed()!.data.fields, { court: readPath(record, 'court') });
    });

    test('the pages serve it', async () => {
      const cookieOf = (headers: Headers) => /lev_ui_session=([^;]+)/.exec(headers.get('set-cookie') ?? '')?.[1];
      const form = await fetch(`${app.url}/ui/sign-in`);
      const cookie = `lev_ui_session=${cookieOf(form.headers)}`;
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] as string;
      const body = new URLSearchParams([
        ['csrf', csrf],
        ['username', 'fifth-type'],
        ['roles', 'testfixture'],
        ['roles', 'full-details'],
      ]);
      const signed = await fetch(`${app.url}/ui/sign-in`, {
        method: 'POST',
        body,
        headers: { cookie },
        redirect: 'manual',
      });
      assert.equal(signed.status, 303);
      const session = `lev_ui_session=${cookieOf(signed.headers)}`;
      const page = await fetch(`${app.url}/ui/testfixture/${FULL_ID}`, { headers: { cookie: session } });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Fenwick/);
      const search = await fetch(
        `${app.url}/ui/testfixture/search?submitted=1&surname=Fenwick&forenames=Rosalind&dateOfBirth-day=14` +
          `&dateOfBirth-month=5&dateOfBirth-year=2012`,
        {
          headers: { cookie: session },
          redirect: 'manual',
        },
      );
      assert.equal(search.status, 303, 'the one registration found is shown');
      assert.equal(search.headers.get('location'), `/ui/testfixture/${FULL_ID}`);
    });
  });
