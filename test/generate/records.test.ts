import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli.ts';
import { recordType } from '../../src/load/conversion.ts';
import { COMMUNITIES, MISS_SURNAMES } from '../../src/generate/names.ts';
import { Random, Weighted } from '../../src/generate/random.ts';
import {
  DEFAULT_FIRST_ID,
  TUNED_TYPES,
  datesOf,
  generateRecords,
  recordAt,
  searchSample,
} from '../../src/generate/records.ts';
import { type Fields, groupFields, isLeaf, isLink, isList, readPath } from '../../src/records/define.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import { searchKeys } from '../../src/records/search-keys.ts';
import { builtInTypes as records } from '../record-types.ts';

type Rec = Record<string, unknown>;
const descriptionOf = (type: string) => records.find((d) => d.name === type)!;
const take = (type: string, count: number, seed = 'test', firstId?: number): Rec[] => [
  ...generateRecords(type, { count, seed, firstId }),
];
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const ageOn = (born: string, on: string) => {
  const years = Number(on.slice(0, 4)) - Number(born.slice(0, 4));
  return on.slice(5) < born.slice(5) ? years - 1 : years;
};

/** Paths of the field tree missing from a record (every key must be present, null where unrecorded). */
function missingKeys(fields: Fields, root: Fields, value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path || '/'}: not an object`];
  const record = value as Rec;
  const missing: string[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const at = `${path}/${key}`;
    if (!(key in record)) missing.push(at);
    else if (isLeaf(field)) continue;
    else if (isList(field)) {
      if (!Array.isArray(record[key])) missing.push(`${at}: not a list`);
      else
        (record[key] as unknown[]).forEach((item, i) =>
          missing.push(...missingKeys(field.item, root, item, `${at}/${i}`)),
        );
    } else if (isLink(field)) {
      if (record[key] !== null) missing.push(...missingKeys(root, root, record[key], at));
    } else missing.push(...missingKeys(groupFields(field), root, record[key], at));
  }
  return missing;
}

/** The names of every searchable party of a record. */
const partyNames = (type: string, record: Rec) =>
  descriptionOf(type).search.parties.map((p) => ({
    forenames: readPath(record, p.forenames) as string,
    surname: readPath(record, p.surname) as string,
  }));

describe('random', () => {
  test('is deterministic for a seed and differs between seeds', () => {
    const draw = (seed: string) => {
      const r = Random.fromString(seed);
      return Array.from({ length: 8 }, () => r.next());
    };
    assert.deepEqual(draw('a'), draw('a'));
    assert.notDeepEqual(draw('a'), draw('b'));
  });

  test('int stays in range and weighted follows the weights', () => {
    const r = Random.fromString('range');
    const table = new Weighted([
      ['rare', 1],
      ['common', 9],
    ] as const);
    let common = 0;
    for (let i = 0; i < 20_000; i++) {
      const n = r.int(3, 7);
      assert.ok(n >= 3 && n <= 7 && Number.isInteger(n));
      const b = r.bell(10, 20);
      assert.ok(b >= 10 && b <= 20);
      if (r.weighted(table) === 'common') common++;
    }
    assert.ok(common > 17_500 && common < 18_500, `common picked ${common} times of 20000`);
  });
});

describe('generateRecords', () => {
  for (const type of TUNED_TYPES) {
    test(`${type}: every record is a complete, storable v1 record`, () => {
      const description = descriptionOf(type);
      const stored = recordType(description);
      let linked = 0;
      for (const record of generateRecords(type, { count: 4000, seed: `valid-${type}` })) {
        const result = stored.toStored(record);
        assert.ok(!('reason' in result), `record ${record.id}: ${'reason' in result ? result.reason : ''}`);
        assert.deepEqual(
          missingKeys(description.fields, description.fields, record),
          [],
          `record ${record.id} misses keys`,
        );
        if (record.previousRegistration || record.nextRegistration) linked++;
        // Only JSON values: what is generated is what is written.
        assert.deepEqual(JSON.parse(JSON.stringify(record)), record);
      }
      assert.ok(linked > 0, 'some records are linked re-registrations');
    });
  }

  test('the same type, count and seed give byte-identical records; other seeds and types differ', () => {
    for (const type of TUNED_TYPES) {
      const a = JSON.stringify(take(type, 600, 'same'));
      assert.equal(JSON.stringify(take(type, 600, 'same')), a);
      assert.notEqual(JSON.stringify(take(type, 600, 'other')), a);
    }
    const births = take('birth', 50, 'x').map((r) => (r.child as Rec).forenames);
    const deaths = take('death', 50, 'x').map((r) => (r.deceased as Rec).forenames);
    assert.notDeepEqual(births, deaths);
  });

  test('a longer run starts with the records of a shorter one', () => {
    const short = take('marriage', 999, 'prefix').map((r) => JSON.stringify(r));
    const long = take('marriage', 1500, 'prefix').map((r) => JSON.stringify(r));
    // The last record of the shorter run may be a first registration whose pair did not fit.
    assert.deepEqual(long.slice(0, 998), short.slice(0, 998));
  });

  /** Where each tuned type records its own event: what a window of days places. */
  const EVENT_DATE: Record<string, string> = {
    birth: 'child.dateOfBirth',
    death: 'deceased.dateOfDeath',
    marriage: 'dateOfMarriage',
    partnership: 'dateOfPartnership',
  };

  test("a window of days places every record's event within it, and the type's whole range is the default", () => {
    for (const type of TUNED_TYPES) {
      const { days, windowed } = datesOf(type);
      assert.ok(windowed, type);
      assert.deepEqual(
        [...generateRecords(type, { count: 200, seed: 'window', days })],
        take(type, 200, 'window'),
        `${type}: its whole range is what no window gives`,
      );
      // A week at the end of the range, as a week's load would hold: Saturdays and the early years' rule included.
      const week: [number, number] = [days[1] - 6, days[1]];
      const dates = [...generateRecords(type, { count: 400, seed: 'window', days: week })].map(
        (record) => readPath(record, EVENT_DATE[type]) as string,
      );
      for (const date of dates) assert.ok(day(date) >= week[0] && day(date) <= week[1], `${type} on ${date}`);
      assert.ok(new Set(dates).size > 3, `${type}: the week's days are all used`);
    }
  });

  test('a window outside the range, reversed, or for a type built from its description alone is refused', () => {
    const { days } = datesOf('birth');
    for (const window of [
      [days[0] - 1, days[0]],
      [days[1], days[1] + 1],
      [days[0] + 10, days[0] + 9],
    ] as [number, number][])
      assert.throws(() => [...generateRecords('birth', { count: 1, seed: 'w', days: window })], RangeError);
    // A type of another name has no builder tuned by hand: its records come from its description alone.
    const described = { ...descriptionOf('death'), name: 'inquest' };
    assert.equal(datesOf(described).windowed, false);
    assert.equal([...generateRecords(described, { count: 2, seed: 'w' })].length, 2);
    assert.throws(
      () => [...generateRecords(described, { count: 1, seed: 'w', days: datesOf(described).days })],
      RangeError,
    );
  });

  test('recordAt rebuilds any record from its position', () => {
    const all = take('death', 301, 'at', 5);
    for (const position of [0, 1, 2, 137, 298, 299, 300]) {
      assert.deepEqual(recordAt('death', { count: 301, seed: 'at', firstId: 5 }, position), all[position]);
    }
  });

  test('ids are sequential from firstId, by default 100000000', () => {
    assert.deepEqual(
      take('birth', 25).map((r) => r.id),
      Array.from({ length: 25 }, (_, i) => DEFAULT_FIRST_ID + i),
    );
    assert.deepEqual(
      take('partnership', 7, 'test', 900_000_000).map((r) => r.id),
      Array.from({ length: 7 }, (_, i) => 900_000_000 + i),
    );
    assert.deepEqual(take('death', 0), []);
    assert.equal(take('death', 1).length, 1);
    assert.throws(() => take('birth', -1), RangeError);
    assert.throws(() => take('nosuchtype', 1), RangeError);
  });

  for (const type of TUNED_TYPES) {
    test(
      `${type}: re-registrations come in consecutive pairs, ` + `each embedding the other, pointing outwards only`,
      () => {
        const all = take(type, 20_000, `pairs-${type}`);
        const dateParam = descriptionOf(type).search.parties[0].dates[0];
        const strip = (r: Rec) => ({ ...r, previousRegistration: null, nextRegistration: null });
        let pairs = 0;
        all.forEach((record, i) => {
          const next = record.nextRegistration as Rec | null;
          const previous = record.previousRegistration as Rec | null;
          if (next) {
            pairs++;
            assert.equal(previous, null, 'a pair is two records, not a chain');
            const later = all[i + 1];
            assert.equal(next.id, (record.id as number) + 1);
            assert.deepEqual(next, strip(later), 'the embedded successor is the next record, without links');
            assert.deepEqual(
              later.previousRegistration,
              strip(record),
              'the successor embeds this record, without links',
            );
            assert.equal(readPath(later, dateParam), readPath(record, dateParam), 'the same event');
          } else if (previous) {
            assert.equal((all[i - 1].nextRegistration as Rec | null)?.id, record.id);
          }
        });
        const share = pairs / all.length;
        assert.ok(share > 0.002 && share < 0.009, `${(share * 100).toFixed(2)}% of records are re-registrations`);
        const blocked = all.filter((r) => (r.status as Rec).blocked === true).length / all.length;
        assert.ok(blocked > 0.0002 && blocked < 0.003, `${(blocked * 100).toFixed(2)}% of records are blocked`);
        assert.ok(all.every((r) => typeof (r.status as Rec).blocked === 'boolean'));
      },
    );
  }

  for (const type of TUNED_TYPES) {
    test(`${type}: accented, hyphenated and apostrophe names are a small share; surnames are shared`, () => {
      const names = take(type, 5000, `names-${type}`).flatMap((r) => partyNames(type, r));
      const share = (pattern: RegExp) =>
        names.filter((n) => pattern.test(`${n.forenames} ${n.surname}`)).length / names.length;
      const accented = share(/[^\x00-\x7f]/);
      const hyphenated = share(/-/);
      const apostrophe = share(/'/);
      assert.ok(accented > 0.01 && accented < 0.08, `accented ${(accented * 100).toFixed(2)}%`);
      assert.ok(hyphenated > 0.01 && hyphenated < 0.08, `hyphenated ${(hyphenated * 100).toFixed(2)}%`);
      assert.ok(apostrophe > 0.002 && apostrophe < 0.04, `apostrophe ${(apostrophe * 100).toFixed(2)}%`);

      const words = names.map((n) => n.forenames.split(' ').length);
      const oneWord = words.filter((w) => w === 1).length / words.length;
      const threeWords = words.filter((w) => w === 3).length / words.length;
      assert.ok(words.every((w) => w >= 1 && w <= 3));
      assert.ok(oneWord > 0.2 && oneWord < 0.45, `one forename ${(oneWord * 100).toFixed(1)}%`);
      assert.ok(threeWords > 0.02 && threeWords < 0.12, `three forenames ${(threeWords * 100).toFixed(1)}%`);

      const counts = new Map<string, number>();
      for (const n of names) counts.set(normaliseName(n.surname), (counts.get(normaliseName(n.surname)) ?? 0) + 1);
      const commonest = Math.max(...counts.values()) / names.length;
      assert.ok(commonest > 0.01, `commonest surname ${(commonest * 100).toFixed(2)}%`);
      assert.ok(counts.size < names.length / 5, `${counts.size} distinct surnames among ${names.length} names`);
    });
  }

  test('births: born 1900-2025, registered within 42 days (re-registrations later)', () => {
    for (const r of take('birth', 5000, 'births')) {
      const child = r.child as Rec;
      const born = child.dateOfBirth as string;
      assert.ok(born >= '1900-01-01' && born <= '2025-12-31', born);
      const delay = day(r.date as string) - day(born);
      if ((r.status as Rec).reregistration === 'None')
        assert.ok(delay >= 0 && delay <= 42, `registered ${delay} days after birth`);
      else assert.ok(delay >= 42, `re-registered ${delay} days after birth`);
      assert.ok(['Male', 'Female', 'Indeterminate'].includes(child.sex as string));
    }
  });

  test('deaths: plausible ages, death on or after birth, about 1% without a date of birth', () => {
    const all = take('death', 10_000, 'deaths');
    let unknown = 0;
    let old = 0;
    for (const r of all) {
      const deceased = r.deceased as Rec;
      const died = deceased.dateOfDeath as string;
      assert.ok(died >= '1975-01-01' && died <= '2025-12-31', died);
      assert.ok((r.date as string) >= died, 'registered after the death');
      if (deceased.dateOfBirth === null) {
        unknown++;
        continue;
      }
      const born = deceased.dateOfBirth as string;
      assert.ok(born >= '1900-01-01' && born <= died, `${born} .. ${died}`);
      const age = ageOn(born, died);
      assert.ok(age >= 0 && age <= 110, `age ${age}`);
      if (age >= 65) old++;
      if (age >= 1) assert.equal(deceased.ageAtDeath, `${age} year${age === 1 ? '' : 's'}`);
    }
    assert.ok(unknown / all.length > 0.004 && unknown / all.length < 0.02, `${unknown} without a date of birth`);
    assert.ok(old / all.length > 0.6, 'most deaths are in old age');
  });

  test('marriages and partnerships: adult parties', () => {
    for (const r of take('marriage', 5000, 'adults')) {
      for (const who of ['groom', 'bride'])
        assert.ok(((r[who] as Rec).age as number) >= 18, `${who} aged ${(r[who] as Rec).age}`);
      assert.ok((r.dateOfMarriage as string) >= '1930-01-01');
    }
    for (const r of take('partnership', 5000, 'adults')) {
      const formed = r.dateOfPartnership as string;
      assert.ok(formed >= '2005-12-21' && formed <= '2025-12-31', formed);
      for (const who of ['partner1', 'partner2']) {
        const age = ageOn((r[who] as Rec).dob as string, formed);
        assert.ok(age >= 18 && age <= 100, `${who} aged ${age}`);
      }
      const sexes = [(r.partner1 as Rec).sex, (r.partner2 as Rec).sex];
      if (formed < '2019-12-31') assert.equal(sexes[0], sexes[1], 'only same-sex partnerships before 31 December 2019');
    }
  });
});

describe('searchSample', () => {
  test('miss surnames are in none of the pools', () => {
    const pooled = new Set(
      COMMUNITIES.flatMap((c) => c.surnames.flatMap((s) => [normaliseName(s), ...normaliseName(s).split(' ')])),
    );
    for (const surname of MISS_SURNAMES) assert.ok(!pooled.has(normaliseName(surname)), surname);
  });

  // Every described type: a tuned builder's records or those made from a description alone.
  for (const type of records.map((d) => d.name)) {
    test(`${type}: hits find their record, misses find nothing`, () => {
      const options = { count: 3000, seed: `sample-${type}`, firstId: 7_000_000 };
      const description = descriptionOf(type);
      const all = [...generateRecords(type, options)];
      const keys = all.map((record) => ({ id: record.id as number, keys: searchKeys(description, record) }));
      const find = (query: Readonly<Record<string, string>>) => {
        const surname = normaliseName(query.surname);
        const forenames = normaliseName(query.forenames);
        const date = query[description.search.dateParam];
        return keys
          .filter((r) =>
            r.keys.some(
              (k) =>
                k.date === date &&
                k.surname === surname &&
                (k.forenames === forenames || k.forenames.startsWith(`${forenames} `)),
            ),
          )
          .map((r) => r.id);
      };

      const samples = searchSample(type, options, 101);
      assert.equal(samples.length, 101);
      assert.deepEqual(JSON.stringify(searchSample(type, options, 101)), JSON.stringify(samples), 'deterministic');
      samples.forEach((sample, i) => {
        assert.deepEqual(
          Object.keys(sample.query).sort(),
          ['forenames', 'surname', description.search.dateParam].sort(),
        );
        const found = find(sample.query);
        if (i % 2 === 0) {
          assert.ok(
            sample.expectId !== null && found.includes(sample.expectId),
            `sample ${i} should find ${sample.expectId}`,
          );
        } else {
          assert.equal(sample.expectId, null);
          assert.deepEqual(found, [], `sample ${i} should find nothing`);
        }
      });
      const hitIds = new Set(samples.filter((s) => s.expectId !== null).map((s) => s.expectId));
      assert.ok(hitIds.size > 40, 'hits are spread over the stream');
      assert.ok(searchSample(type, { ...options, count: 0 }, 4).every((s) => s.expectId === null));
    });
  }
});

describe('lev-api generate', () => {
  const quietly = async <T>(
    t: { mock: { method: (o: object, m: string, f: () => void) => unknown } },
    work: () => Promise<T>,
  ) => {
    t.mock.method(console, 'error', () => {});
    t.mock.method(console, 'log', () => {});
    return work();
  };

  test('writes N lines of NDJSON to --out, the records generateRecords gives', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'lev-generate-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'deaths.ndjson');
    const code = await quietly(t, () =>
      main(['generate', '--type', 'death', '--count', '2345', '--seed', 'cli', '--out', file, '--first-id', '500']),
    );
    assert.equal(code, 0);
    const text = await readFile(file, 'utf8');
    assert.ok(text.endsWith('\n'));
    const lines = text.slice(0, -1).split('\n');
    assert.equal(lines.length, 2345);
    const expected = [...generateRecords('death', { count: 2345, seed: 'cli', firstId: 500 })].map((r) =>
      JSON.stringify(r),
    );
    assert.deepEqual(lines, expected);
    assert.equal(JSON.parse(lines[0]).id, 500);
  });

  test('--from and --to write the records of that window, either end left to the range', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'lev-generate-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'births.ndjson');
    const code = await quietly(t, () =>
      main(['generate', '--type', 'birth', '--count', '300', '--seed', 'week', '--out', file, '--from', '2025-11-01']),
    );
    assert.equal(code, 0);
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    const expected = [
      ...generateRecords('birth', { count: 300, seed: 'week', days: [day('2025-11-01'), datesOf('birth').days[1]] }),
    ];
    assert.deepEqual(
      lines.map((line) => JSON.parse(line)),
      expected,
    );
    for (const line of lines) assert.ok(JSON.parse(line).child.dateOfBirth >= '2025-11-01');
  });

  test('--count 0 writes an empty file', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'lev-generate-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'none.ndjson');
    assert.equal(await quietly(t, () => main(['generate', '--type', 'birth', '--count', '0', '--out', file])), 0);
    assert.equal(await readFile(file, 'utf8'), '');
  });

  test('bad arguments are usage errors (exit code 2)', async (t) => {
    for (const args of [
      [],
      ['--type', 'birth'],
      ['--count', '10'],
      ['--type', 'nosuchtype', '--count', '10'],
      ['--type', 'birth', '--count', '-5'],
      ['--type', 'birth', '--count', '1.5'],
      ['--type', 'birth', '--count', 'ten'],
      ['--type', 'birth', '--count', '10', '--first-id', 'x'],
      ['--type', 'birth', '--count', '10', '--colour', 'red'],
      ['--type', 'birth', '--count', '10', 'extra'],
      ['--type', 'birth', '--count', '10', '--first-id', String(Number.MAX_SAFE_INTEGER)],
      ['--type', 'birth', '--count', '10', '--from', '2025-02-30'],
      ['--type', 'birth', '--count', '10', '--from', '1899-12-31'],
      ['--type', 'birth', '--count', '10', '--to', '2025-12-31'],
      ['--type', 'birth', '--count', '10', '--from', '2020-01-02', '--to', '2020-01-01'],
      ['--type', 'marriage', '--count', '10', '--from', 'last week'],
    ]) {
      assert.equal(await quietly(t, () => main(['generate', ...args])), 2, args.join(' '));
    }
  });

  test('streams to stdout, reporting only on stderr', async () => {
    const bin = fileURLToPath(new URL('../../bin/lev-api.js', import.meta.url));
    const child = spawn(
      process.execPath,
      [bin, 'generate', '--type', 'partnership', '--count', '3000', '--seed', 'pipe'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, Buffer.concat(err).toString());
    const lines = Buffer.concat(out).toString('utf8').trimEnd().split('\n');
    assert.equal(lines.length, 3000);
    assert.deepEqual(JSON.parse(lines[2999]), [...generateRecords('partnership', { count: 3000, seed: 'pipe' })][2999]);
    assert.match(Buffer.concat(err).toString(), /^generated 3000 partnership records in \d+\.\d s\n$/);
  });
});
