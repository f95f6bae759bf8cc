/**
 * A new field is one edit to its type's description, shown on the built-in types and their
 * scenario files: in a copy of `src/` whose death description alone is edited (three optional
 * fields: a place, a date after the death, and text that declares nothing), the generator gives
 * them values made from the description, the mock's death 123456789 (every field filled) serves
 * them filled, the other scenario records, written whole, leave them out, and every other value
 * is as it was.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as AppModule from '../../src/app.ts';
import type * as ConfigModule from '../../src/config/index.ts';
import type * as EntriesModule from '../../src/load/conversion.ts';
import type * as RecordsModule from '../../src/generate/records.ts';
import type * as DatasetModule from '../../src/mock/dataset.ts';
import type * as OpenModule from '../../src/backend/open.ts';
import { generateRecords } from '../../src/generate/records.ts';
import { FULL_ID, mockRecords } from '../../src/mock/dataset.ts';
import { readPath } from '../../src/records/define.ts';
import { FULL_DETAILS } from '../helper.ts';
import { builtInScenarios, builtInType, builtInTypes } from '../record-types.ts';

type Rec = Record<string, unknown>;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The edit a newcomer makes: three leaves added to src/records/types/death.ts, nothing else. */
const EDITS: readonly (readonly [anchor: string, added: string])[] = [
  [
    "      aliases: list('basic', 'Other names by which the deceased was known', alias),\n",
    "      placeOfBurial: basic(text('Where the deceased was buried', 'place')),\n",
  ],
  [
    '  fields: {\n',
    "    burialDate: isoDate('Date of burial', { after: 'deceased.dateOfDeath', days: [3, 30] }),\n    " +
      "funeralDirector: text('The funeral director'),\n",
  ],
];

// The copy resolves its packages through the project's node_modules, and is an ES module as src/ is.
const copy = mkdtempSync(join(tmpdir(), 'lev-new-field-'));
after(() => rmSync(copy, { recursive: true, force: true }));
cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true });
symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
writeFileSync(join(copy, 'package.json'), '{ "type": "module" }\n');
const deathFile = join(copy, 'src/records/types/death.ts');
let text = readFileSync(deathFile, 'utf8');
for (const [anchor, added] of EDITS) {
  assert.equal(text.split(anchor).length, 2, `death.ts has one line ${JSON.stringify(anchor)} to add after`);
  text = text.replace(anchor, anchor + added);
}
writeFileSync(deathFile, text);

const load = <M>(path: string): Promise<M> => import(pathToFileURL(join(copy, 'src', path)).href) as Promise<M>;
const edited = await load<typeof OpenModule>('backend/open.ts');
const types = await edited.loadBuiltInTypes();
const deathWith = types.descriptions.find((d) => d.name === 'death')!;
const death = builtInType('death');

/** The record without the new fields, in its links too. */
const withoutNew = (record: Rec): Rec => {
  const { burialDate, funeralDirector, ...rest } = record;
  const { placeOfBurial, ...deceased } = rest.deceased as Rec;
  const out: Rec = { ...rest, deceased };
  for (const link of ['previousRegistration', 'nextRegistration'])
    if (out[link]) out[link] = withoutNew(out[link] as Rec);
  return out;
};

test('the edited copy describes the new fields; the built-in types are the same otherwise', () => {
  assert.deepEqual(
    types.descriptions.map((d) => d.name),
    builtInTypes.map((d) => d.name),
  );
  assert.deepEqual(
    types.scenarios.map((s) => s.type),
    builtInScenarios.map((s) => s.type),
  );
  assert.ok('burialDate' in deathWith.fields && !('burialDate' in death.fields));
});

test('the generator fills a new field from its description, and leaves every other value as it was', async () => {
  const { recordType } = await load<typeof EntriesModule>('load/conversion.ts');
  const { generateRecords: generateEdited } = await load<typeof RecordsModule>('generate/records.ts');
  const stored = recordType(deathWith);
  const before = [...generateRecords(death, { count: 600, seed: 'new field' })];
  const after = [...generateEdited(deathWith, { count: 600, seed: 'new field' })] as Rec[];
  assert.deepEqual(after.map(withoutNew), before);
  for (const record of after) {
    assert.ok(!('reason' in stored.toStored(record)), `record ${record.id} is storable`);
    assert.equal(typeof readPath(record, 'deceased.placeOfBurial'), 'string');
    assert.equal(record.funeralDirector, 'The funeral director');
    const died = readPath(record, 'deceased.dateOfDeath') as string;
    const buried = record.burialDate as string;
    const days = (Date.parse(buried) - Date.parse(died)) / 86_400_000;
    assert.ok(days >= 3 && days <= 30, `buried ${buried}, ${days} days after ${died}`);
  }
  assert.ok(new Set(after.map((r) => readPath(r, 'deceased.placeOfBurial'))).size > 20, 'places vary');
});

test(
  "the mock's death 123456789 fills the new fields; the other records leave them out; every other value " +
    'is as it was',
  async () => {
    const { mockRecords: editedRecords } = await load<typeof DatasetModule>('mock/dataset.ts');
    const before = mockRecords(builtInTypes, builtInScenarios) as Record<string, Rec[]>;
    const after = editedRecords(types.descriptions, types.scenarios) as Record<string, Rec[]>;
    for (const type of ['birth', 'marriage', 'partnership'])
      assert.deepEqual(after[type], before[type], `${type} records as they were`);
    const full = after.death.find((r) => r.id === FULL_ID)!;
    assert.equal(typeof readPath(full, 'deceased.placeOfBurial'), 'string');
    assert.match(full.burialDate as string, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok((full.burialDate as string) > (readPath(full, 'deceased.dateOfDeath') as string));
    assert.equal(full.funeralDirector, 'The funeral director');
    assert.deepEqual(after.death.map(withoutNew), before.death);
    // The others are their register entries written whole: what an entry does not give is unrecorded
    // (a blocked one apart, filled so that its answer tells nothing of what it records).
    const unblocked = after.death.filter((r) => r.id !== FULL_ID && readPath(r, 'status.blocked') === false);
    assert.ok(unblocked.length > 5);
    for (const record of unblocked)
      assert.ok(
        !('burialDate' in record) && !('placeOfBurial' in (record.deceased as Rec)),
        `${record.id} leaves them out`,
      );
  },
);

test(
  'the service on the edited copy serves death 123456789 ' + 'with the new fields filled, and documents them',
  async (t) => {
    const { loadConfig } = await load<typeof ConfigModule>('config/index.ts');
    const { buildApp } = await load<typeof AppModule>('app.ts');
    const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', MOCK_EVENT_INTERVAL_S: '0' });
    const backend = await edited.openBackend(config, types);
    t.after(() => backend.close());
    const app = await buildApp(config, { backend, descriptions: types.descriptions });
    t.after(() => app.close());
    const full = await app.inject({ url: `/v1/registration/death/${FULL_ID}`, headers: FULL_DETAILS });
    assert.equal(full.statusCode, 200);
    const body = full.json();
    const record = mockRecords(builtInTypes, builtInScenarios).death.find((r) => (r as Rec).id === FULL_ID) as Rec;
    assert.equal(typeof readPath(body, 'deceased.placeOfBurial'), 'string');
    assert.match(body.burialDate, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(body.funeralDirector, 'The funeral director');
    assert.equal(readPath(body, 'deceased.surname'), readPath(record, 'deceased.surname'));
    // Basic: shown without full-details; the others are hidden (null).
    const basic = (
      await app.inject({ url: `/v1/registration/death/${FULL_ID}`, headers: { ...FULL_DETAILS, 'x-auth-roles': '' } })
    ).json();
    assert.equal(readPath(basic, 'deceased.placeOfBurial'), readPath(body, 'deceased.placeOfBurial'));
    assert.equal(basic.burialDate, null);
    const document = (await app.inject({ url: '/openapi.json' })).json();
    const schema = JSON.stringify(document);
    for (const name of ['placeOfBurial', 'burialDate', 'funeralDirector'])
      assert.ok(schema.includes(`"${name}"`), `/openapi.json names ${name}`);
  },
);
