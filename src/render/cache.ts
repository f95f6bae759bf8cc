/**
 * Rendered answers, kept on the stored record's JSON text.
 *
 * A record's rendering is a function of the view, the audience and the stored
 * record alone, and the key is the text the store has just read for this very
 * request. So an entry cannot outlive its record: a record that a load changed
 * reads as another text, misses, and is rendered afresh. Nothing is trusted to
 * a time to live or to a data version.
 *
 * Bounded: kept in two generations of about half of `maxBytes` each,
 * counting the memory of the texts and renderings as V8 holds them (a byte a
 * character, or two when one is beyond Latin-1) and of each entry. Records are added to the
 * current one; when it is full, it becomes the previous one and the previous
 * one is dropped; a record found in the previous one moves into the current
 * one. So what is used again stays and what is not goes, as with a least
 * recently used list, but each step is a map operation or two, never a scan.
 */
import type { Audience } from './compile.ts';
import type { CompiledView } from './view.ts';

export interface RenderCache {
  /** The JSON answer of `view` for `audience`, of the record stored as `stored`. */
  json(view: CompiledView, audience: Audience, stored: string): string;
  /**
   * What `derive` works out from the record stored as `stored` (parsed for it), kept beside its
   * renderings under `name`: for small facts a route needs of a record it answers with, which would
   * otherwise cost parsing the record at every answer. `derive` must be a function of the record
   * alone, the same for every call with the same `name`.
   */
  derived<T>(stored: string, name: string, derive: (data: unknown) => T): T;
  /** What the cache holds now, for tests and metrics. */
  readonly size: { readonly records: number; readonly bytes: number };
}

/** V8 keeps a string in one byte a character unless one of them needs two. */
const NOT_LATIN1 = /[^\u0000-\u00ff]/;
const stringBytes = (text: string) => (NOT_LATIN1.test(text) ? 2 : 1) * text.length;
/** What an entry costs beyond its strings: its object, array and map slot, roughly. */
const ENTRY_BYTES = 160;
/** What a derived value costs, counted as a small object of a few short strings. */
const DERIVED_BYTES = 200;

interface Entry {
  /** By view and audience: `views.indexOf(view) * 2 + (fullDetails ? 1 : 0)`. */
  readonly renderings: (string | undefined)[];
  derived?: Map<string, unknown>;
  bytes: number;
}

export function createRenderCache(views: readonly CompiledView[], maxBytes: number): RenderCache {
  const slots = new Map(views.map((view, i) => [view, i * 2]));
  // The record parsed last: a route that derives a fact of a record and then renders it (close
  // matches, for a name matched exactly) parses it once. Renderers and `derive` only read it.
  let lastText: string | undefined;
  let lastData: unknown;
  const parse = (stored: string) => {
    if (stored !== lastText) [lastText, lastData] = [stored, JSON.parse(stored)];
    return lastData;
  };
  const render = (view: CompiledView, audience: Audience, stored: string) =>
    JSON.stringify(view.render(parse(stored), audience));
  let current = new Map<string, Entry>();
  let previous = new Map<string, Entry>();
  let currentBytes = 0;
  let previousBytes = 0;

  /** The entry of `stored`, and whether it is in the current generation. */
  const entryOf = (stored: string) => {
    const held = current.get(stored);
    return {
      held: held !== undefined,
      entry: held ?? previous.get(stored) ?? { renderings: [], bytes: ENTRY_BYTES + stringBytes(stored) },
    };
  };
  /** `bytes` more held by `entry`. */
  const grow = (entry: Entry, held: boolean, bytes: number) => {
    entry.bytes += bytes;
    if (held) currentBytes += bytes;
  };
  /** An entry used now, in the current generation (which, full, becomes the previous one). */
  const keep = (stored: string, entry: Entry, held: boolean) => {
    if (held) return;
    if (currentBytes + entry.bytes > maxBytes / 2) {
      previous = current;
      previousBytes = currentBytes;
      current = new Map();
      currentBytes = 0;
    }
    current.set(stored, entry);
    currentBytes += entry.bytes;
  };

  return {
    json(view, audience, stored) {
      const slot = slots.get(view);
      if (slot === undefined || maxBytes <= 0) return render(view, audience, stored);
      const index = slot + (audience.fullDetails ? 1 : 0);
      const { entry, held } = entryOf(stored);
      let json = entry.renderings[index];
      if (json === undefined) {
        json = render(view, audience, stored);
        entry.renderings[index] = json;
        grow(entry, held, stringBytes(json));
      }
      keep(stored, entry, held);
      return json;
    },
    derived<T>(stored: string, name: string, derive: (data: unknown) => T): T {
      if (maxBytes <= 0) return derive(parse(stored));
      const { entry, held } = entryOf(stored);
      entry.derived ??= new Map();
      let value = entry.derived.get(name) as T | undefined;
      if (value === undefined && !entry.derived.has(name)) {
        value = derive(parse(stored));
        entry.derived.set(name, value);
        grow(entry, held, DERIVED_BYTES);
      }
      keep(stored, entry, held);
      return value as T;
    },
    get size() {
      const records = new Set([...previous.keys(), ...current.keys()]).size;
      return { records, bytes: currentBytes + previousBytes };
    },
  };
}
