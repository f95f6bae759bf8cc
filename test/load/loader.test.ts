/**
 * The bulk loader: the streaming splitters on their own, then `loadFiles`
 * against every backend (memory always, PostgreSQL where a server answers),
 * then the `lev-api load` command against the server.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { type TestContext, describe, test } from 'node:test';
import { loadCommand } from '../../src/commands/load.ts';
import { JsonArraySplitter } from '../../src/load/json-array-entries.ts';
import { LoadError, type LoadResult, loadFiles, summary } from '../../src/load/loader.ts';
import { NdjsonSplitter } from '../../src/load/ndjson-entries.ts';
import { describeProgress, duration, progressReporter } from '../../src/load/progress.ts';
import type { RawEntry, Splitter } from '../../src/load/splitter.ts';
import { streamEntries } from '../../src/load/stream-entries.ts';
import { mockRecords } from '../../src/mock/dataset.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { tableNames } from '../../src/store/record-tables.ts';
import { TEST_DATABASE_URL, type TestStore, emptySchema, emptyStore, postgresAvailable, recordTypes, storeKinds } from '../helper.ts';
import { REFERENCE, referenceMissing } from '../compat/reference-folder.ts';
import { builtInScenarios, builtInType, builtInTypes as descriptions, builtInTypes } from '../record-types.ts';

const MOCK_DATA = resolve(REFERENCE, 'mock-data');

type Json = Record<string, any>;

// ---------------------------------------------------------------------------
// Splitters
// ---------------------------------------------------------------------------

/** Feeds `text` to a splitter in pieces of `size` characters (every boundary is tried with size 1). */
function split(splitter: Splitter, text: string, size = text.length || 1): RawEntry[] {
  const out: RawEntry[] = [];
  for (let i = 0; i < text.length; i += size) splitter.push(text.slice(i, i + size), out);
  splitter.end(out);
  return out;
}

/** The same text cut every way: whole, one character at a time, and in a few uneven sizes. */
function splitEveryWay(make: () => Splitter, text: string): RawEntry[] {
  const whole = split(make(), text);
  for (const size of [1, 2, 3, 7, 64]) assert.deepEqual(split(make(), text, size), whole, `chunks of ${size}`);
  return whole;
}

describe('NDJSON splitter', () => {
  test('gives each non-blank line with its line number, however the text is cut', () => {
    const text = '{"a":1}\n\n  \n{"b":"x\\ny"}\r\n{"c":[1,2]}';
    assert.deepEqual(splitEveryWay(() => new NdjsonSplitter(), text), [
      { number: 1, text: '{"a":1}' },
      { number: 4, text: '{"b":"x\\ny"}' },
      { number: 5, text: '{"c":[1,2]}' },
    ]);
  });

  test('a final line break adds nothing; empty input has no entries', () => {
    assert.deepEqual(split(new NdjsonSplitter(), '{"a":1}\n'), [{ number: 1, text: '{"a":1}' }]);
    assert.deepEqual(split(new NdjsonSplitter(), ''), []);
    assert.deepEqual(split(new NdjsonSplitter(), '\n\n'), []);
  });

  test('refuses a line longer than its limit instead of buffering it', () => {
    assert.throws(() => split(new NdjsonSplitter(0, 10), '{"a":"0123456789"}\n', 4), /line 1 is longer than 10/);
    assert.throws(() => split(new NdjsonSplitter(0, 10), '{}\n{"a":"0123456789"}'), /line 2 is longer than 10/);
  });
});

describe('JSON array splitter', () => {
  test('splits top-level elements, leaving brackets, braces, commas and escapes inside strings alone', () => {
    const elements = [
      '{"a":"]},[{"}',
      '{"b":"say \\"hi\\", [ok]"}',
      '{"c":"back\\\\"}',
      '{"d":"\\\\\\"]"}',
      '{"e":{"f":[1,{"g":[]}],"h":"}"}}',
      '[1,[2,[3]]]',
      '"a string, with ] and }"',
      '42',
      'true',
      'null',
      '{"i":"line\\nbreak\\tand \\u005d"}',
      '{}',
    ];
    const text = `[\n  ${elements.join(',\n  ')}\n]\n`;
    const entries = splitEveryWay(() => new JsonArraySplitter(), text);
    assert.deepEqual(entries.map((e) => e.text), elements);
    assert.deepEqual(entries.map((e) => e.number), elements.map((_, i) => i + 1));
    // Each element's text is exactly what JSON.parse of the whole array holds.
    assert.deepEqual(entries.map((e) => JSON.parse(e.text)), JSON.parse(text));
  });

  test('pretty-printed elements keep their inner line breaks; whitespace around them is dropped', () => {
    const value = [{ a: [1, 2], b: { c: 'x' } }, { d: null }];
    const entries = splitEveryWay(() => new JsonArraySplitter(), JSON.stringify(value, null, 2));
    assert.equal(entries.length, 2);
    assert.deepEqual(entries.map((e) => JSON.parse(e.text)), value);
    assert.ok(entries[0].text.includes('\n'));
    assert.ok(entries[0].text.startsWith('{') && entries[0].text.endsWith('}'));
  });

  test('an empty array has no entries', () => {
    assert.deepEqual(split(new JsonArraySplitter(), '[]'), []);
    assert.deepEqual(split(new JsonArraySplitter(), ' \n[ \n ]\n\n', 1), []);
  });

  test('a malformed element is passed on whole, for JSON.parse to reject on its own', () => {
    const entries = split(new JsonArraySplitter(), '[{"a":1},{"b":tru},{"c":3}]', 5);
    assert.deepEqual(entries.map((e) => e.text), ['{"a":1}', '{"b":tru}', '{"c":3}']);
    assert.throws(() => JSON.parse(entries[1].text));
  });

  test('a broken array structure stops the file', () => {
    const broken: [string, RegExp][] = [
      ['{"a":1}', /expected '\['/],
      ['', /empty/],
      ['[{"a":1},{"b":2}', /ends after item 2: the array is not closed/],
      ['[{"a":1},{"b":[2', /ends inside item 2: the array is not closed/],
      ['[{"a":1},', /ends before the array is closed/],
      ['[{"a":1},{"b":"2', /ends inside item 2 \(in a string\)/],
      ['[{"a":1},]', /comma after item 1/],
      ['[{"a":1},,{"b":2}]', /item 2 is missing/],
      ['[,{"b":2}]', /item 1 is missing/],
      ['[{"a":1}] x', /after the end of the array/],
      ['[{"a":1}][{"b":2}]', /after the end of the array/],
      ['[{"a":1}}]', /unexpected '}' in item 1/],
    ];
    for (const [text, message] of broken) {
      for (const size of [1, 4, 100]) {
        assert.throws(() => split(new JsonArraySplitter(), text, size), message, `${JSON.stringify(text)} in chunks of ${size}`);
      }
    }
  });

  test('refuses an element longer than its limit instead of buffering it', () => {
    assert.throws(() => split(new JsonArraySplitter(10), '[{"a":"0123456789"}]', 3), /item 1 is longer than 10/);
  });

  test('a broken item in the middle of an array is named with the line it starts on, never as where the file ends', () => {
    const items = Array.from({ length: 30 }, (_, i) => JSON.stringify({ id: i + 1, child: { surname: 'Smith', forenames: 'Ann' } }));
    const broken: [string, (item: string) => string, RegExp][] = [
      ['a closing brace missing', (item) => item.slice(0, -1), /item 15 \(from line 15\): '\]' on line 30 closes a '\{'/],
      ['an opening brace too many', (item) => item.replace('{"surname"', '{{"surname"'), /item 15 \(from line 15\): '\]' on line 30 closes a '\{'/],
      ['a bracket where a brace belongs', (item) => item.replace('"Smith"', '["Smith"'), /item 15 \(from line 15\): '\}' on line 15 closes a '\['/],
      ['a quote missing', (item) => item.replace('"Smith"', '"Smith'), /ends inside item 15 \(in a string\): the array is not closed \(it starts on line 15; a quote in it is not closed/],
    ];
    for (const [name, breakItem, message] of broken) {
      const copy = [...items];
      copy[14] = breakItem(copy[14]);
      const text = `[${copy.join(',\n')}]\n`;
      for (const size of [7, 1000, text.length]) {
        assert.throws(() => split(new JsonArraySplitter(), text, size), (error: Error) => {
          assert.doesNotMatch(error.message, /ends after item/, name);
          assert.match(error.message, message, `${name}: ${error.message}`);
          return true;
        });
      }
    }
    // Cut short after a whole item, the file does end after it.
    assert.throws(() => split(new JsonArraySplitter(), `[${items.slice(0, 3).join(',\n')}`, 5), /the file ends after item 3: the array is not closed/);
    assert.throws(() => split(new JsonArraySplitter(), `[${items[0]}\n${items[1]}`, 5), /the file ends inside item 1, which is not valid JSON \(from line 1\)/);
  });
});

describe('streamEntries', () => {
  const collect = async (chunks: (Buffer | string)[]) => {
    const entries: RawEntry[] = [];
    let bytes = 0;
    let format: string | undefined;
    for await (const chunk of streamEntries(Readable.from(chunks))) {
      entries.push(...chunk.entries);
      bytes += chunk.bytes;
      format = chunk.format ?? format;
    }
    return { entries, bytes, format };
  };
  /** A buffer cut into single bytes: multi-byte characters are split across chunks. */
  const bytewise = (text: string) => [...Buffer.from(text)].map((b) => Buffer.from([b]));

  test('tells a JSON array from NDJSON by the first non-blank character, past a BOM and blank lines', async () => {
    const ndjson = await collect(bytewise('\ufeff\n \n{"n":"Zoë 李 😀"}\n{"n":2}\n'));
    assert.equal(ndjson.format, 'ndjson');
    assert.deepEqual(ndjson.entries, [
      { number: 3, text: '{"n":"Zoë 李 😀"}' },
      { number: 4, text: '{"n":2}' },
    ]);
    assert.equal(ndjson.bytes, Buffer.byteLength('\ufeff\n \n{"n":"Zoë 李 😀"}\n{"n":2}\n'));

    const array = await collect(bytewise('\n  [{"n":"Zoë 李 😀"},\n{"n":2}]'));
    assert.equal(array.format, 'json-array');
    assert.deepEqual(array.entries.map((e) => JSON.parse(e.text).n), ['Zoë 李 😀', 2]);
  });

  test('an empty or blank input has no entries', async () => {
    assert.deepEqual((await collect([])).entries, []);
    assert.deepEqual((await collect(['  \n\n', '\t'])).entries, []);
  });
  test('marks the entries holding bytes that are not UTF-8, however the bytes are cut; a real U+FFFD is text like any other', async () => {
    const good = Buffer.from('{"n":"Zoë 李 😀 \ufffd"}\n');
    const cases: [string, Buffer][] = [
      ['FF FE', Buffer.from([0xff, 0xfe])],
      ['a lone continuation byte', Buffer.from([0x80])],
      ['an overlong encoding', Buffer.from([0xc0, 0x80])],
      ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
      ['a sequence cut short', Buffer.from([0xe2, 0x82])],
      ['beyond U+10FFFF', Buffer.from([0xf4, 0x90, 0x80, 0x80])],
    ];
    for (const [name, bytes] of cases) {
      const input = Buffer.concat([good, Buffer.from('{"n":"Sm'), bytes, Buffer.from('th"}\n'), good]);
      for (const chunks of [[input], [...input].map((b) => Buffer.from([b]))]) {
        const { entries } = await collect(chunks);
        assert.deepEqual(entries.map((e) => [e.number, e.invalidUtf8 ?? false]), [[1, false], [2, true], [3, false]], name);
        assert.equal(JSON.parse(entries[0].text).n, 'Zoë 李 😀 \ufffd', name);
      }
    }
    // Cut short at the very end of the input.
    const { entries } = await collect([Buffer.concat([good, Buffer.from('{"n":"x"}'), Buffer.from([0xf0, 0x9f])])]);
    assert.deepEqual(entries.map((e) => e.invalidUtf8 ?? false), [false, true]);
  });
});

describe('progress', () => {
  test('shows records, rate, and an ETA when the size is known', () => {
    const p = { file: 'f.ndjson', records: 50_000, bytesRead: 250, totalBytes: 1000, elapsedMs: 2000 };
    assert.equal(describeProgress(p), 'f.ndjson: 50,000 records, 25,000/s, 25%, ETA 0:06');
    assert.equal(describeProgress({ ...p, totalBytes: undefined }), 'f.ndjson: 50,000 records, 25,000/s');
    assert.equal(duration(4000), '1:06:40');
  });

  test('rewrites one line on a terminal; writes a plain line now and then otherwise', () => {
    let clock = 0;
    const p = { file: 'f', records: 1, bytesRead: 1, totalBytes: undefined, elapsedMs: 1000 };
    const tty = { isTTY: true, text: '', write(s: string) { this.text += s; } };
    const onTty = progressReporter(tty, { now: () => clock });
    for (clock = 0; clock <= 1000; clock += 100) onTty.update(p);
    onTty.done();
    assert.equal(tty.text.split('\r\x1b[K').length - 1, 6); // five updates (every 200 ms) and the clearing
    assert.ok(!tty.text.includes('\n'));

    const log = { text: '', write(s: string) { this.text += s; } };
    const onLog = progressReporter(log, { now: () => clock });
    for (clock = 0; clock <= 12_000; clock += 100) onLog.update(p);
    onLog.done();
    assert.equal(log.text, 'f: 1 records, 1/s\nf: 1 records, 1/s\n');

    // Too wide for the terminal: the start of the file name goes, the numbers stay.
    const narrow = { isTTY: true, columns: 30, text: '', write(s: string) { this.text += s; } };
    clock = 0;
    const onNarrow = progressReporter(narrow, { now: () => clock });
    clock = 1000;
    onNarrow.update({ ...p, file: '/a/very/long/path/to/births.ndjson' });
    assert.equal(narrow.text, '\r\x1b[K…irths.ndjson: 1 records, 1/s');
    assert.equal([...'…irths.ndjson: 1 records, 1/s'].length, 29); // one column spare: no wrap
  });
});

// ---------------------------------------------------------------------------
// loadFiles
// ---------------------------------------------------------------------------

const mock = mockRecords(builtInTypes, builtInScenarios) as Record<string, Json[]>;

/** `count` valid births: the mock births over and over, with ids from `firstId`. */
function births(count: number, firstId = 1): Json[] {
  return Array.from({ length: count }, (_, i) => ({ ...structuredClone(mock.birth[i % mock.birth.length]), id: firstId + i }));
}

const ndjson = (entries: unknown[]) => entries.map((e) => JSON.stringify(e)).join('\n') + '\n';

async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lev-load-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** How many of the records with ids `from` to `to` - 1 the store holds. */
async function held(store: TestStore, type: string, from: number, to: number): Promise<number> {
  let found = 0;
  for (let id = from; id < to; id++) if ((await store.lookupJson(type, String(id))) !== undefined) found++;
  return found;
}

/** The rows of a PostgreSQL table (in a stable order), or undefined on another backend. */
async function rowsOf(store: TestStore, table: string): Promise<unknown[] | undefined> {
  if (store.kind !== 'postgres') return undefined;
  return store.driver.query(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4`);
}

const counts = (result: LoadResult) => {
  const { read, inserted, updated, unchanged, rejected } = result;
  return { read, inserted, updated, unchanged, rejected };
};
const expected = (c: Partial<ReturnType<typeof counts>>) => ({ read: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, ...c });

async function loadError(promise: Promise<unknown>): Promise<LoadError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof LoadError, `expected a LoadError, got ${error}`);
    return error;
  }
  assert.fail('the load did not fail');
}

for (const kind of await storeKinds()) {
  test(`loadFiles (${kind})`, async (t) => {
    // On PostgreSQL one schema, emptied before each case; a new memory store costs nothing.
    const shared = await emptyStore(t, kind);
    const fresh = async () => {
      if (shared.kind === 'memory') return emptyStore(t, kind);
      await shared.driver.exec(`TRUNCATE ${descriptions.map((d) => tableNames(d.name).records).join(', ')} CASCADE`);
      return shared;
    };
    const dir = await tempDir(t);
    const file = (name: string) => join(dir, name);

    await t.test('loads a valid NDJSON file; loading it again changes nothing; a changed record is updated', async () => {
      const store = await fresh();
      const records = births(230);
      await writeFile(file('valid.ndjson'), ndjson(records));
      assert.deepEqual(counts(await loadFiles(store.writer, builtInType('birth'), [file('valid.ndjson')], { batchSize: 50 })), expected({ read: 230, inserted: 230 }));
      assert.equal(await held(store, 'birth', 1, 231), 230);
      const keysAfterFirst = await rowsOf(store, 'birth_search_key');

      assert.deepEqual(counts(await loadFiles(store.writer, builtInType('birth'), [file('valid.ndjson')], { batchSize: 50 })), expected({ read: 230, unchanged: 230 }));
      assert.deepEqual(await rowsOf(store, 'birth_search_key'), keysAfterFirst);

      // Record 3 renamed, record 200 given a new entry number, and two new records.
      const changed = structuredClone(records);
      const before = records[2] as Json;
      changed[2].child.surname = 'Renamed';
      changed[199].entryNumber = 4242;
      changed.push(...births(2, 10_000));
      await writeFile(file('changed.ndjson'), ndjson(changed));
      assert.deepEqual(
        counts(await loadFiles(store.writer, builtInType('birth'), [file('changed.ndjson')], { batchSize: 50 })),
        expected({ read: 232, inserted: 2, updated: 2, unchanged: 228 }),
      );
      assert.equal((await held(store, 'birth', 1, 231)) + (await held(store, 'birth', 10_000, 10_002)), 232);
      assert.deepEqual(await store.lookup('birth', '200'), changed[199]);

      // The renamed record's search keys were replaced.
      const key = (surname: string) => ({ date: before.child.dateOfBirth, surname: normaliseName(surname), forenames: normaliseName(before.child.forenames) });
      const found = await store.search('birth', key('Renamed'), 500);
      assert.ok(found.records.some((r) => (r as Json).id === 3));
      const old = await store.search('birth', key(before.child.surname), 500);
      assert.ok(!old.records.some((r) => (r as Json).id === 3));
    });

    await t.test('the first invalid record stops the load, and nothing of its file is applied', async () => {
      const store = await fresh();
      const records: unknown[] = births(120);
      records[101] = { ...(records[101] as Json), child: { surname: 42 } };
      await writeFile(file('invalid.ndjson'), ndjson(records));
      // Batches of 25: four were written before the bad record was read.
      const error = await loadError(loadFiles(store.writer, builtInType('birth'), [file('invalid.ndjson')], { batchSize: 25 }));
      assert.match(error.message, new RegExp(`^${file('invalid.ndjson').replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}:102: invalid birth record: /child/surname: `));
      assert.equal(error.file, file('invalid.ndjson'));
      assert.deepEqual(counts(error.committed), expected({}));
      assert.equal(await held(store, 'birth', 1, 121), 0);
      assert.deepEqual(await rowsOf(store, 'birth_search_key'), store.kind === 'postgres' ? [] : undefined);

      // Over loaded records: the updates in the batches before the bad record are undone too.
      const original = births(120);
      await writeFile(file('original.ndjson'), ndjson(original));
      await loadFiles(store.writer, builtInType('birth'), [file('original.ndjson')]);
      const keysBefore = await rowsOf(store, 'birth_search_key');
      const renamed: unknown[] = original.map((r) => ({ ...r, child: { ...r.child, surname: 'Changed' } }));
      renamed[101] = records[101];
      await writeFile(file('renamed.ndjson'), ndjson(renamed));
      await loadError(loadFiles(store.writer, builtInType('birth'), [file('renamed.ndjson')], { batchSize: 25 }));
      assert.deepEqual(await store.lookup('birth', '1'), original[0]);
      assert.deepEqual(await rowsOf(store, 'birth_search_key'), keysBefore);
      const first = original[0].child;
      const byName = (surname: string) => ({ date: first.dateOfBirth, surname: normaliseName(surname), forenames: normaliseName(first.forenames) });
      assert.ok((await store.search('birth', byName(first.surname), 500)).records.some((r) => (r as Json).id === 1));
      assert.equal((await store.search('birth', byName('Changed'), 500)).records.length, 0);
    });

    await t.test('a line that is not JSON is an invalid record too; a JSON array reports item numbers', async () => {
      const store = await fresh();
      await writeFile(file('garbled.ndjson'), `${JSON.stringify(births(1)[0])}\n{"id": 2,\n`);
      const garbled = await loadError(loadFiles(store.writer, builtInType('birth'), [file('garbled.ndjson')]));
      assert.match(garbled.message, /garbled\.ndjson:2: invalid birth record: not valid JSON \(/);

      const items: unknown[] = births(5);
      items[3] = 'not an object';
      await writeFile(file('invalid.json'), JSON.stringify(items, null, 2));
      const array = await loadError(loadFiles(store.writer, builtInType('birth'), [file('invalid.json')]));
      assert.match(array.message, /invalid\.json item 4: invalid birth record: not a JSON object$/);
      assert.equal(await held(store, 'birth', 1, 6), 0);
    });

    await t.test('files before a failing one stay loaded', async () => {
      const store = await fresh();
      await writeFile(file('first.ndjson'), ndjson(births(10)));
      await writeFile(file('second.json'), '[' + JSON.stringify(births(3, 100)[0]) + ',{"id":-1}]');
      const error = await loadError(loadFiles(store.writer, builtInType('birth'), [file('first.ndjson'), file('second.json')]));
      assert.match(error.message, /second\.json item 2: invalid birth record: \/id: /);
      assert.deepEqual(counts(error.committed), expected({ read: 10, inserted: 10 }));
      assert.equal(await held(store, 'birth', 1, 11), 10);
      assert.equal(await held(store, 'birth', 100, 101), 0);
    });

    await t.test('a broken array stops its file, even with --skip-invalid', async () => {
      const store = await fresh();
      await writeFile(file('unclosed.json'), '[' + births(3).map((b) => JSON.stringify(b)).join(','));
      const error = await loadError(
        loadFiles(store.writer, builtInType('birth'), [file('unclosed.json')], { skipInvalid: true, rejectsPath: file('unclosed.rejects'), batchSize: 1 }),
      );
      assert.match(error.message, /unclosed\.json: not a valid JSON array: the file ends after item 3: the array is not closed$/);
      assert.equal(await held(store, 'birth', 1, 4), 0);
    });

    await t.test('with skipInvalid, valid records load and each invalid one is written with its reason', async () => {
      const store = await fresh();
      const records: unknown[] = births(40);
      records[4] = { ...(records[4] as Json), unknownField: true };
      records[19] = [1, 2];
      records[30] = { ...(records[30] as Json), id: 2 ** 64 };
      const text = ndjson(records).split('\n');
      text.splice(35, 0, '{"id": 1, oops}');
      await writeFile(file('mixed.ndjson'), text.join('\n'));
      const rejects = file('mixed.rejects.ndjson');
      const result = await loadFiles(store.writer, builtInType('birth'), [file('mixed.ndjson')], { skipInvalid: true, rejectsPath: rejects, batchSize: 7 });
      assert.deepEqual(counts(result), expected({ read: 41, inserted: 37, rejected: 4 }));
      assert.equal(result.rejectsPath, rejects);
      assert.equal(await held(store, 'birth', 1, 41), 37);

      const lines = (await readFile(rejects, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line));
      assert.deepEqual(lines.map((l) => l.position), [5, 20, 31, 36].map((n) => `${file('mixed.ndjson')}:${n}`));
      assert.match(lines[0].reason, /^\/unknownField: /);
      assert.deepEqual(lines[0].entry, records[4]);
      assert.equal(lines[1].reason, 'not a JSON object');
      assert.deepEqual(lines[1].entry, [1, 2]);
      assert.match(lines[2].reason, /^\/id: .*largest id/);
      assert.match(lines[3].reason, /^not valid JSON \(/);
      assert.equal(lines[3].entry, '{"id": 1, oops}');

      // The default rejects file sits beside the first file.
      await writeFile(file('clean.ndjson'), ndjson(births(2, 500)));
      const clean = await loadFiles(store.writer, builtInType('birth'), [file('clean.ndjson')], { skipInvalid: true });
      assert.equal(clean.rejectsPath, `${file('clean.ndjson')}.rejects.ndjson`);
      assert.equal(await readFile(`${file('clean.ndjson')}.rejects.ndjson`, 'utf8'), '');
    });

    await t.test('strings PostgreSQL cannot store are rejected, not left to fail the batch', async () => {
      const store = await fresh();
      const records = births(3);
      const lines = ndjson(records).split('\n');
      lines[0] = lines[0].replace(/"forenames":"[^"]*"/, '"forenames":"Nul\\u0000"');
      lines[1] = lines[1].replace(/"forenames":"[^"]*"/, '"forenames":"Half \\ud83d"');
      await writeFile(file('unstorable.ndjson'), lines.join('\n'));
      const result = await loadFiles(store.writer, builtInType('birth'), [file('unstorable.ndjson')], { skipInvalid: true, rejectsPath: file('unstorable.rejects') });
      assert.deepEqual(counts(result), expected({ read: 3, inserted: 1, rejected: 2 }));
      // A whole surrogate pair, escaped, is fine.
      await writeFile(file('emoji.ndjson'), JSON.stringify({ ...births(1, 900)[0], informant1: { forenames: 'Smile \\ud83d\\ude00' } }).replace('\\\\ud83d\\\\ude00', '\\ud83d\\ude00'));
      assert.deepEqual(counts(await loadFiles(store.writer, builtInType('birth'), [file('emoji.ndjson')])), expected({ read: 1, inserted: 1 }));
      assert.equal(((await store.lookup('birth', '900')) as Json).informant1.forenames, 'Smile 😀');
    });

    await t.test('an id given again is invalid where it is given again; a JSON array and rows of the existing service load alike', async () => {
      const store = await fresh();
      const [a, b] = births(2);
      const a2 = { ...structuredClone(a), entryNumber: 99 };
      await writeFile(file('repeated.ndjson'), ndjson([a, b, a2]));
      const repeated = await loadError(loadFiles(store.writer, builtInType('birth'), [file('repeated.ndjson')], { batchSize: 1 }));
      assert.equal(repeated.message, `${file('repeated.ndjson')}:3: invalid birth record: /id: ${a.id} was given already, at ${file('repeated.ndjson')}:1`);
      assert.equal(await held(store, 'birth', 1, 3), 0, 'nothing of the file applied');
      const skipped = await loadFiles(store.writer, builtInType('birth'), [file('repeated.ndjson')], { skipInvalid: true, rejectsPath: file('repeated.rejects') });
      assert.deepEqual(counts(skipped), expected({ read: 3, inserted: 2, rejected: 1 }));
      assert.equal(((await store.lookup('birth', String(a.id))) as Json).entryNumber, a.entryNumber, 'the first is kept');
      await writeFile(file('a2.ndjson'), ndjson([a2]));
      assert.deepEqual(counts(await loadFiles(store.writer, builtInType('birth'), [file('a2.ndjson')])), expected({ read: 1, updated: 1 }), 'another load may change it');

      // The same records as a pretty-printed array: unchanged.
      await writeFile(file('same.json'), JSON.stringify([b, a2], null, 2));
      assert.deepEqual(counts(await loadFiles(store.writer, builtInType('birth'), [file('same.json')])), expected({ read: 2, unchanged: 2 }));

      // Rows of the existing service: {id, data, ...search columns}.
      const row = (r: Json) => ({ id: r.id, data: r, forenames: r.child.forenames, surname: r.child.surname, date_of_birth: r.child.dateOfBirth });
      const rows = births(3, 700).map(row);
      await writeFile(file('rows.json'), JSON.stringify(rows));
      await writeFile(file('rows.ndjson'), ndjson([row(a2), ...rows]));
      assert.deepEqual(counts(await loadFiles(store.writer, builtInType('birth'), [file('rows.json')])), expected({ read: 3, inserted: 3 }));
      assert.deepEqual(counts(await loadFiles(store.writer, builtInType('birth'), [file('rows.ndjson')])), expected({ read: 4, unchanged: 4 }));
      assert.deepEqual(await store.lookup('birth', '701'), rows[1].data);
      const found = await store.search('birth', { date: rows[1].date_of_birth, surname: normaliseName(rows[1].surname), forenames: normaliseName(rows[1].forenames) }, 50);
      assert.ok(found.records.some((r) => (r as Json).id === 701));

      // A row whose id differs from its record's.
      await writeFile(file('bad-row.ndjson'), ndjson([{ ...row(a2), id: 5 }]));
      const error = await loadError(loadFiles(store.writer, builtInType('birth'), [file('bad-row.ndjson')]));
      assert.match(error.message, /bad-row\.ndjson:1: invalid birth record: \/id: the row id 5 differs/);
    });

    await t.test('reads stdin for -, and every record type', async () => {
      const store = await fresh();
      for (const type of ['birth', 'death', 'marriage', 'partnership']) {
        const stdin = Readable.from([Buffer.from(ndjson(mock[type]))]);
        const result = await loadFiles(store.writer, builtInType(type), ['-'], { stdin });
        const ids = new Set(mock[type].map((r) => r.id));
        assert.equal(ids.size, mock[type].length, `the built-in ${type} records have distinct ids`);
        assert.deepEqual(counts(result), expected({ read: mock[type].length, inserted: ids.size }), type);
      }
      const error = await loadError(loadFiles(store.writer, builtInType('death'), ['-'], { stdin: Readable.from(['{"id":"x"}\n']) }));
      assert.match(error.message, /^stdin:1: invalid death record: \/id: /);
    });

    await t.test('stores exactly what the writer stores from checked records: each sees no change in what the other loaded', async () => {
      const store = await fresh();
      const type = recordTypes().find((r) => r.description.name === 'birth')!;
      const toStored = (entry: unknown) => {
        const stored = type.toStored(entry);
        assert.ok(!('reason' in stored));
        return stored;
      };
      const viaStore = births(40, 1);
      const viaLoader = births(40, 100);
      // Rows too: their search keys come from the search columns, not the data.
      const rows = births(5, 200).map((r) => ({ id: r.id, data: r, forenames: 'Column', surname: 'Only', date_of_birth: '2001-02-03' }));
      await store.upsert('birth', [...viaStore, ...rows].map(toStored));
      await writeFile(file('via-loader.ndjson'), ndjson(viaLoader));
      await loadFiles(store.writer, builtInType('birth'), [file('via-loader.ndjson')]);

      await writeFile(file('via-store.ndjson'), ndjson([...viaStore, ...rows]));
      assert.deepEqual(counts(await loadFiles(store.writer, builtInType('birth'), [file('via-store.ndjson')])), expected({ read: 45, unchanged: 45 }));
      assert.deepEqual(await store.upsert('birth', viaLoader.map(toStored)), { inserted: 0, updated: 0, unchanged: 40 });

      // The same search-key rows either way.
      if (store.kind !== 'postgres') return;
      const { driver } = store;
      const keysOf = async (from: number, to: number) =>
        (await driver.query<Json>(`SELECT date::text, surname, forenames, id - $1 AS n FROM birth_search_key WHERE id >= $1 AND id < $2 ORDER BY 4, 1, 2, 3`, [from, to])).map(
          (k): Json => ({ ...k, n: Number(k.n) }),
        );
      assert.deepEqual(await keysOf(100, 140), await keysOf(1, 41));
      const rowKeys = await keysOf(200, 205);
      assert.equal(rowKeys.length, 5);
      assert.ok(rowKeys.every((k) => k.surname === 'only' && k.forenames === 'column' && k.date === '2001-02-03'));
    });

    await t.test('progress is reported as chunks are read', async () => {
      const store = await fresh();
      await writeFile(file('progress.ndjson'), ndjson(births(20)));
      const seen: number[] = [];
      await loadFiles(store.writer, builtInType('birth'), [file('progress.ndjson')], { onProgress: (p) => seen.push(p.records) });
      assert.equal(seen.at(-1), 20);
    });

    await t.test('each reference *_v1 file loads with the right counts', { skip: referenceMissing(MOCK_DATA) }, async () => {
      const store = await fresh();
      const files = (await readdir(MOCK_DATA)).filter((name) => /_v1\.json$/.test(name)).sort();
      assert.equal(files.length, 4);
      for (const name of files) {
        const type = name.split('_')[0];
        const rows = JSON.parse(await readFile(join(MOCK_DATA, name), 'utf8')) as Json[];
        const ids = new Set(rows.map((r) => r.id)).size;
        const path = join(MOCK_DATA, name);
        assert.equal(ids, rows.length, `${name} has distinct ids`);
        const first = await loadFiles(store.writer, builtInType(type), [path]);
        assert.deepEqual(counts(first), expected({ read: rows.length, inserted: ids }), name);
        for (const row of rows) assert.notEqual(await store.lookupJson(type, String(row.id)), undefined, `${type} ${row.id}`);
        assert.deepEqual(counts(await loadFiles(store.writer, builtInType(type), [path])), expected({ read: rows.length, unchanged: ids }));
      }
    });
  });
}

for (const kind of await storeKinds()) {
  test(`bytes that are not UTF-8 are invalid input naming their place (${kind})`, async (t) => {
    const dir = await tempDir(t);
    const records = births(30, 500);
    const lines = records.map((record) => Buffer.from(`${JSON.stringify(record)}\n`));
    // FF FE inside the surname on line 15.
    const surname = Buffer.from(JSON.stringify(records[14].child.surname));
    const at = lines[14].indexOf(surname) + 3;
    lines[14] = Buffer.concat([lines[14].subarray(0, at), Buffer.from([0xff, 0xfe]), lines[14].subarray(at)]);
    const file = join(dir, 'births.ndjson');
    await writeFile(file, Buffer.concat(lines));

    const store = await emptyStore(t, kind);
    const error = await loadError(loadFiles(store.writer, builtInType('birth'), [file]));
    assert.ok(error.message.startsWith(`${file}:15: invalid birth record: not valid UTF-8`), error.message);
    assert.equal(await held(store, 'birth', 500, 530), 0, 'nothing of the file applied');

    const skipped = await loadFiles(store.writer, builtInType('birth'), [file], { skipInvalid: true, rejectsPath: join(dir, 'rejects.ndjson') });
    assert.deepEqual(counts(skipped), expected({ read: 30, inserted: 29, rejected: 1 }));
    assert.equal(await store.lookupJson('birth', '514'), undefined, 'the entry is rejected, not stored with U+FFFD');
    const [reject] = (await readFile(join(dir, 'rejects.ndjson'), 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line));
    assert.equal(reject.position, `${file}:15`);
    assert.match(reject.reason, /not valid UTF-8/);

    // In a JSON array the same names its item.
    const array = join(dir, 'births.json');
    await writeFile(array, Buffer.concat([Buffer.from('['), ...lines.map((line, i) => Buffer.concat([line.subarray(0, -1), Buffer.from(i < lines.length - 1 ? ',\n' : ']\n')]))]));
    const arrayError = await loadError(loadFiles((await emptyStore(t, kind)).writer, builtInType('birth'), [array]));
    assert.ok(arrayError.message.startsWith(`${array} item 15: invalid birth record: not valid UTF-8`), arrayError.message);
  });
}

test('missing files are refused before anything is loaded', async (t) => {
  const [kind] = await storeKinds();
  const store = await emptyStore(t, kind);
  const dir = await tempDir(t);
  await writeFile(join(dir, 'ok.ndjson'), ndjson(births(2)));
  await assert.rejects(loadFiles(store.writer, builtInType('birth'), [join(dir, 'ok.ndjson'), join(dir, 'missing.ndjson')]), /missing\.ndjson: no such file/);
  assert.equal(await held(store, 'birth', 1, 3), 0);
  await assert.rejects(
    loadFiles(store.writer, builtInType('birth'), [join(dir, 'ok.ndjson')], { skipInvalid: true, rejectsPath: join(dir, '.', 'ok.ndjson') }),
    /the rejects file cannot be one of the files to load/,
  );
  assert.equal((await readFile(join(dir, 'ok.ndjson'), 'utf8')).split('\n').length, 3);
});

test('summary line', () => {
  const line = summary({ read: 10, inserted: 5, updated: 2, unchanged: 2, rejected: 1, seconds: 2, rejectsPath: undefined });
  assert.equal(line, 'read 10, inserted 5, updated 2, unchanged 2, rejected 1 in 2.0 s (5 records/s)');
});

// ---------------------------------------------------------------------------
// lev-api load
// ---------------------------------------------------------------------------

/** Runs the command, capturing what it prints. */
async function runLoad(t: TestContext, args: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  t.mock.method(console, 'log', (...parts: unknown[]) => out.push(parts.join(' ')));
  t.mock.method(console, 'error', (...parts: unknown[]) => err.push(parts.join(' ')));
  try {
    const code = await loadCommand.run(args, env, builtInTypes);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    t.mock.restoreAll();
  }
}

test('lev-api load refuses without DATABASE_URL, and a usage mistake', async () => {
  await assert.rejects(loadCommand.run(['--type', 'birth', 'x.ndjson'], {}, builtInTypes), { name: 'UsageError', message: /DATABASE_URL is not set/ });
  const env = { DATABASE_URL: TEST_DATABASE_URL };
  await assert.rejects(loadCommand.run(['x.ndjson'], env, builtInTypes), { name: 'UsageError', message: /--type is required/ });
  await assert.rejects(loadCommand.run(['--type', 'dog', 'x'], env, builtInTypes), { name: 'UsageError', message: /--type must be one of/ });
  await assert.rejects(loadCommand.run(['--type', 'birth'], env, builtInTypes), { name: 'UsageError', message: /at least one FILE/ });
  await assert.rejects(loadCommand.run(['--type', 'birth', '--batch', '0', 'x'], env, builtInTypes), { name: 'UsageError', message: /--batch/ });
  await assert.rejects(loadCommand.run(['--type', 'birth', '--rejects', 'r', 'x'], env, builtInTypes), { name: 'UsageError', message: /--skip-invalid/ });
  await assert.rejects(loadCommand.run(['--type', 'birth', '-', '-'], env, builtInTypes), { name: 'UsageError', message: /once/ });
  await assert.rejects(loadCommand.run(['--type', 'birth', '--nope', 'x'], env, builtInTypes), { name: 'UsageError' });
});

test('lev-api load against a PostgreSQL server', { skip: !(await postgresAvailable()) && 'no PostgreSQL server' }, async (t) => {
  const { schema, admin } = await emptySchema(t);
  const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema };
  const dir = await tempDir(t);
  const data = join(dir, 'births.ndjson');
  await writeFile(data, ndjson(births(30)));

  await t.test('refuses while the schema is behind', async () => {
    await assert.rejects(loadCommand.run(['--type', 'birth', data], env, builtInTypes), { name: 'SchemaBehindError', message: /lev-api migrate/ });
  });

  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1, statementTimeoutMs: 10_000 });
  await migrate(driver);
  await driver.close();

  await t.test('loads, then finds nothing to change', async (t) => {
    const first = await runLoad(t, ['--type', 'birth', data], env);
    assert.equal(first.code, 0, first.err);
    assert.match(first.out, /^read 30, inserted 30, updated 0, unchanged 0, rejected 0 in \d+\.\d s \(\d+ records\/s\)$/);
    const again = await runLoad(t, ['--type', 'birth', '--batch', '7', data], env);
    assert.match(again.out, /^read 30, inserted 0, updated 0, unchanged 30, rejected 0 in /);
  });

  await t.test('stops at an invalid record with exit code 1, or skips it', async (t) => {
    const records: unknown[] = births(5, 100);
    records[2] = { id: 'three' };
    const bad = join(dir, 'bad.ndjson');
    await writeFile(bad, ndjson(records));
    const stopped = await runLoad(t, ['--type', 'birth', bad], env);
    assert.equal(stopped.code, 1);
    assert.match(stopped.err, new RegExp(`${bad.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}:3: invalid birth record: /id: `));
    assert.match(stopped.err, /nothing from .*bad\.ndjson was applied/);
    assert.equal((await admin.query(`SELECT count(*)::int AS n FROM ${schema}.birth_registration WHERE id >= 100`)).rows[0].n, 0);

    const skipped = await runLoad(t, ['--type', 'birth', '--skip-invalid', bad], env);
    assert.equal(skipped.code, 0, skipped.err);
    assert.match(skipped.out, /^read 5, inserted 4, updated 0, unchanged 0, rejected 1 in /);
    assert.match(skipped.out, new RegExp(`rejected records are in .*bad\\.ndjson\\.rejects\\.ndjson`));
    const [reject] = (await readFile(`${bad}.rejects.ndjson`, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(reject, { position: `${bad}:3`, reason: reject.reason, entry: { id: 'three' } });
  });

  await t.test('stops at bytes that are not UTF-8, naming the file and line', async (t) => {
    const bad = join(dir, 'not-utf8.ndjson');
    await writeFile(bad, Buffer.concat([Buffer.from(ndjson(births(2, 200))), Buffer.from('{"id":202,"child":{"surname":"Sm'), Buffer.from([0xff, 0xfe]), Buffer.from('th"}}\n')]));
    const stopped = await runLoad(t, ['--type', 'birth', bad], env);
    assert.equal(stopped.code, 1);
    assert.match(stopped.err, new RegExp(`${bad.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}:3: invalid birth record: not valid UTF-8`));
    assert.equal((await admin.query(`SELECT count(*)::int AS n FROM ${schema}.birth_registration WHERE id >= 200 AND id < 300`)).rows[0].n, 0);
  });
});
