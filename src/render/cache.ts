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
  /** What the cache holds now, for tests and metrics. */
  readonly size: { readonly records: number; readonly bytes: number };
}

/** V8 keeps a string in one byte a character unless one of them needs two. */
const NOT_LATIN1 = /[^\u0000-\u00ff]/;
const stringBytes = (text: string) => (NOT_LATIN1.test(text) ? 2 : 1) * text.length;
/** What an entry costs beyond its strings: its object, array and map slot, roughly. */
const ENTRY_BYTES = 160;

interface Entry {
  /** By view and audience: `views.indexOf(view) * 2 + (fullDetails ? 1 : 0)`. */
  readonly renderings: (string | undefined)[];
  bytes: number;
}

export function createRenderCache(views: readonly CompiledView[], maxBytes: number): RenderCache {
  const slots = new Map(views.map((view, i) => [view, i * 2]));
  const render = (view: CompiledView, audience: Audience, stored: string) => JSON.stringify(view.render(JSON.parse(stored), audience));
  let current = new Map<string, Entry>();
  let previous = new Map<string, Entry>();
  let currentBytes = 0;
  let previousBytes = 0;

  return {
    json(view, audience, stored) {
      const slot = slots.get(view);
      if (slot === undefined || maxBytes <= 0) return render(view, audience, stored);
      const index = slot + (audience.fullDetails ? 1 : 0);
      const held = current.get(stored);
      const entry = held ?? previous.get(stored) ?? { renderings: [], bytes: ENTRY_BYTES + stringBytes(stored) };
      let json = entry.renderings[index];
      if (json === undefined) {
        json = render(view, audience, stored);
        entry.renderings[index] = json;
        const bytes = stringBytes(json);
        entry.bytes += bytes;
        if (held) currentBytes += bytes;
      }
      if (!held) {
        if (currentBytes + entry.bytes > maxBytes / 2) {
          previous = current;
          previousBytes = currentBytes;
          current = new Map();
          currentBytes = 0;
        }
        current.set(stored, entry);
        currentBytes += entry.bytes;
      }
      return json;
    },
    get size() {
      const records = new Set([...previous.keys(), ...current.keys()]).size;
      return { records, bytes: currentBytes + previousBytes };
    },
  };
}
