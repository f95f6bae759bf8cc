/**
 * A close-match index held in memory, in flat typed arrays rather than maps of objects: the memory
 * store's, and each of those a PostgreSQL store's thread holds with SUGGESTION_INDEX=service
 * (followed-suggestion-index.ts).
 *
 * A close match reads some 40 to 250 candidates' search keys and the postings of some 100 keys, each
 * a few bytes in a heap of a gigabyte or more. Kept as objects and `Map` entries they lie scattered
 * across it, and reading them, a cache and TLB miss or two apiece, was most of what scoring and
 * finding cost (docs/performance.md). Here:
 * - each record has a position, and each of its search keys is three numbers side by side (the
 *   date, the surname, the forenames), each naming a string kept once in a table of its own: a
 *   candidate reads a few neighbouring numbers and strings that every record with the same name
 *   shares;
 * - the postings of each key are a list of positions, found through an open-addressing table of
 *   the keys (placed by `slotOf`, the key folded to 30 bits, and told apart by the whole key, so
 *   that a pass finds the records PostgreSQL's key table finds: test/store/close-match-order.test.ts).
 * Candidates are answered as the stores' readers answer them (match/candidates.ts): their keys as
 * numbers of the strings they hold, numbered afresh from the table's for each answer.
 *
 * A record written again is removed and added: its old keys are left behind until they are half of
 * those kept, when the keys and the string table are written afresh (so memory stays within
 * twice what the records need, and each write costs constant time on average).
 */
import { datePartOfKey, hashOfKey, suggestionKeyValues } from '../match/keys.ts';
import type { SearchKey, SuggestionCandidates } from '../model/records.ts';
import type { KeyPass } from '../model/store.ts';
import { NameTally } from './name-tally.ts';

/**
 * A close-match key's slot: the key (a number below 2^53, match/keys.ts) folded to 30 bits, where
 * the table's search for it starts. Keys of one name and neighbouring days fold to neighbouring slots.
 */
function slotOf(key: number): number {
  return (Math.imul(hashOfKey(key), 0x01000193) ^ datePartOfKey(key)) & 0x3fffffff;
}

/** A key as the reader's callers give it (a number, or its decimal text). */
const keyOfGiven = (key: number | string) => (typeof key === 'number' ? key : Number(key));

/** No position, no posting: the end of a list, an empty place. */
const NONE = -1;

/**
 * A record's numbers, side by side in one array by position: its id (NaN once removed), where its
 * keys are among the keys, and how many. One array, so that a candidate's are one read in memory
 * (24 bytes a record, where an array of ids and one of the rest took 16: 80 MB more at ten million
 * births, for a cache miss less a candidate).
 */
const RECORD_FIELDS = 3;
const ID = 0;
const FIRST_KEY = 1;
const KEY_COUNT = 2;

/** A typed array twice as long, its contents kept. */
function grown<T extends Int32Array | Float64Array>(array: T, least: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(least, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * The `count` positions of `among` whose ids are least, in no order: a heap of `count` kept while
 * they are read, rather than a sort of all (a common name ties tens of thousands at ten million
 * births, of which a pass takes a few hundred). `records` (the index's, RECORD_FIELDS a position,
 * the id first) undefined: positions are in id order, and are compared themselves (each id a read
 * from an array of every record, a cache miss at ten million).
 */
function leastIds(among: number[], count: number, records: Float64Array | undefined): number[] {
  if (among.length <= count) return among;
  if (count <= 0) return [];
  const idOf = (position: number) => (records ? records[position * RECORD_FIELDS] : position);
  // A max-heap by id: its top is the greatest id kept, the first to give way.
  const heap = among.slice(0, count);
  const sift = (from: number) => {
    for (let at = from; ; ) {
      const left = at * 2 + 1;
      if (left >= count) return;
      const larger = left + 1 < count && idOf(heap[left + 1]) > idOf(heap[left]) ? left + 1 : left;
      if (idOf(heap[larger]) <= idOf(heap[at])) return;
      [heap[at], heap[larger]] = [heap[larger], heap[at]];
      at = larger;
    }
  };
  for (let at = (count >> 1) - 1; at >= 0; at--) sift(at);
  for (let i = count; i < among.length; i++) {
    if (idOf(among[i]) < idOf(heap[0])) {
      heap[0] = among[i];
      sift(0);
    }
  }
  return heap;
}

/** Strings kept once each, by number. */
class Strings {
  readonly table: string[] = [];
  private readonly numbers = new Map<string, number>();

  numberOf(text: string): number {
    let n = this.numbers.get(text);
    if (n === undefined) {
      n = this.table.length;
      this.table.push(text);
      this.numbers.set(text, n);
    }
    return n;
  }
}

export interface SuggestionIndex {
  /** Indexes a record's keys; a record already indexed is first removed. */
  add(id: number, keys: readonly SearchKey[]): void;
  remove(id: number): void;
  /** The passes' candidates, as RecordReader.suggestionCandidates answers them. */
  candidates(passes: readonly KeyPass[]): SuggestionCandidates;
  /**
   * How many records indexed have this surname, and this first forename (RecordReader.registerCounts):
   * each record's distinct surnames and first forenames counted once (name-tally.ts).
   */
  nameCounts(surname: string, forename: string): { readonly surname: number; readonly forename: number };
  /**
   * Told that a bulk write has ended (a build, a load): lays each key's postings out as one run
   * again when many have come since the last time, so that the next walks read memory in order.
   */
  settle(): void;
}

export function createSuggestionIndex(): SuggestionIndex {
  // Each array below holds a record's, a key's or a posting's numbers side by side, so that reading
  // one is reading one place in memory.
  // Records, by position (RECORD_FIELDS each).
  const positions = new Map<number, number>();
  let records = new Float64Array(1024 * RECORD_FIELDS);
  const freePositions: number[] = [];
  let nextPosition = 0;
  // Whether positions are in id order, and the greatest id added. A record written again keeps its
  // position, and one with an id above every other's takes a new one at the end (not one a removal
  // freed), so a register built in id order and then written keeps them in order: an answer then
  // orders and breaks ties by position, reading no id but those it answers. Any other addition
  // takes a freed position, or a new one, out of order, and ids are read from then on.
  let inIdOrder = true;
  let greatestId = Number.NEGATIVE_INFINITY;

  // The keys: date, surname and forenames, each the number of a string in `strings`.
  let strings = new Strings();
  let keyColumns = new Int32Array(1024 * 3);
  let keysUsed = 0;
  let keysLive = 0;

  // The keys: an open-addressing table of [1 + its postings, first posting] pairs and the key each
  // place holds (0: an empty place), and the postings, each a position and the next posting of
  // its key.
  let table = new Int32Array(1024 * 2);
  let placeKeys = new Float64Array(1024);
  let slotsHeld = 0;
  let postings = new Int32Array(1024 * 2);
  let postingsUsed = 0;
  let freePosting = NONE;

  // Places are found by the high bits of a multiplicative hash of the slot: the slots of one name's
  // neighbouring days are neighbours, and would otherwise fill runs of neighbouring places.
  let shift = 32 - 10;
  // A place is empty where its key is 0 (no key is: its hash's highest bit is set), so that a probe
  // reads one array, a cache miss a key at ten million births rather than two.
  const placeOf = (key: number): number => {
    const mask = placeKeys.length - 1;
    let at = Math.imul(slotOf(key), 0x9e3779b1) >>> shift;
    while (placeKeys[at] !== 0 && placeKeys[at] !== key) at = (at + 1) & mask;
    return at;
  };

  /** The table anew with `places` places (a power of two). */
  const rehash = (places: number) => {
    const old = table;
    const oldKeys = placeKeys;
    table = new Int32Array(places * 2);
    placeKeys = new Float64Array(places);
    shift = 32 - Math.log2(places);
    slotsHeld = 0;
    for (let at = 0; at < old.length; at += 2) {
      // Keys whose postings all went are dropped.
      if (old[at] === 0 || old[at + 1] === NONE) continue;
      const place = placeOf(oldKeys[at / 2]);
      table[place * 2] = old[at];
      table[place * 2 + 1] = old[at + 1];
      placeKeys[place] = oldKeys[at / 2];
      slotsHeld++;
    }
  };

  const post = (key: number, position: number) => {
    // At most half full, counting slots whose postings all went, so that a probe ends soon: those
    // are dropped first, and the table doubled if that is not enough.
    if ((slotsHeld + 1) * 4 > table.length) {
      rehash(table.length / 2);
      if ((slotsHeld + 1) * 4 > table.length) rehash(table.length);
    }
    const place = placeOf(key);
    if (table[place * 2] === 0) {
      table[place * 2] = 1;
      table[place * 2 + 1] = NONE;
      placeKeys[place] = key;
      slotsHeld++;
    }
    let posting = freePosting;
    if (posting !== NONE) freePosting = postings[posting * 2 + 1];
    else {
      if (postingsUsed * 2 === postings.length) postings = grown(postings, 0);
      posting = postingsUsed++;
    }
    postings[posting * 2] = position;
    postings[posting * 2 + 1] = table[place * 2 + 1];
    table[place * 2 + 1] = posting;
    table[place * 2]++;
  };

  // Postings packed when their number has doubled since the last packing: each key's list written
  // afresh as a run of neighbouring entries, in the order it is walked. Records come one at a time,
  // so a key's postings would otherwise lie wherever each record's turn put them, and a walk through
  // the postings of a common name at a million records missed the cache at every step (a third of a
  // close match's CPU). Packing costs a pass over the postings: constant time a posting, on average.
  let packedAt = 1024;
  let packedUsed = 0;
  const pack = () => {
    const packed = new Int32Array(Math.max(1024, postingsUsed * 2) * 2);
    let used = 0;
    for (let at = 0; at < table.length; at += 2) {
      if (table[at] === 0 || table[at + 1] === NONE) continue;
      let posting = table[at + 1];
      table[at + 1] = used;
      for (; posting !== NONE; posting = postings[posting * 2 + 1]) {
        packed[used * 2] = postings[posting * 2];
        packed[used * 2 + 1] = used + 1;
        used++;
      }
      packed[used * 2 - 1] = NONE;
    }
    postings = packed;
    postingsUsed = used;
    freePosting = NONE;
    packedAt = Math.max(1024, used);
    packedUsed = used;
  };

  // Packing at each doubling leaves up to half of a built index's postings scattered (a third at ten
  // million births). A settle leaves a sixty-fourth, at most a pass over the postings per
  // sixty-fourth added: with an eighth left, each of a close match's walks at ten million births
  // began with some hundreds of postings scattered, a cache miss each (a tenth of its CPU).
  const settle = () => {
    if ((postingsUsed - packedUsed) * 64 > postingsUsed) pack();
  };

  const unpost = (key: number, position: number) => {
    const place = placeOf(key);
    if (table[place * 2] === 0) return;
    let before = NONE;
    for (let posting = table[place * 2 + 1]; posting !== NONE; before = posting, posting = postings[posting * 2 + 1]) {
      if (postings[posting * 2] !== position) continue;
      if (before === NONE) table[place * 2 + 1] = postings[posting * 2 + 1];
      else postings[before * 2 + 1] = postings[posting * 2 + 1];
      table[place * 2]--;
      postings[posting * 2 + 1] = freePosting;
      freePosting = posting;
      return;
    }
  };

  const keysAt = (position: number): SearchKey[] => {
    const keys: SearchKey[] = [];
    const { table: text } = strings;
    const first = records[position * RECORD_FIELDS + FIRST_KEY];
    for (let k = first, end = first + records[position * RECORD_FIELDS + KEY_COUNT]; k < end; k++) {
      keys.push({
        date: text[keyColumns[k * 3]],
        surname: text[keyColumns[k * 3 + 1]],
        forenames: text[keyColumns[k * 3 + 2]],
      });
    }
    return keys;
  };

  /** Writes the live records' keys afresh, and a fresh string table, in position order. */
  const compact = () => {
    const live = [...positions.values()].sort((a, b) => a - b);
    const held = live.map(keysAt);
    strings = new Strings();
    keyColumns = new Int32Array(Math.max(1024, keysLive * 2) * 3);
    keysUsed = 0;
    live.forEach((position, i) => putKeys(position, held[i]));
  };

  const putKeys = (position: number, keys: readonly SearchKey[]) => {
    if ((keysUsed + keys.length) * 3 > keyColumns.length) keyColumns = grown(keyColumns, (keysUsed + keys.length) * 3);
    records[position * RECORD_FIELDS + FIRST_KEY] = keysUsed;
    records[position * RECORD_FIELDS + KEY_COUNT] = keys.length;
    for (const key of keys) {
      keyColumns[keysUsed * 3] = strings.numberOf(key.date);
      keyColumns[keysUsed * 3 + 1] = strings.numberOf(key.surname);
      keyColumns[keysUsed * 3 + 2] = strings.numberOf(key.forenames);
      keysUsed++;
    }
  };

  const names = new NameTally();

  const remove = (id: number) => {
    const position = positions.get(id);
    if (position === undefined) return;
    const keys = keysAt(position);
    names.count(keys, -1);
    for (const key of suggestionKeyValues(keys)) unpost(key, position);
    keysLive -= records[position * RECORD_FIELDS + KEY_COUNT];
    positions.delete(id);
    records[position * RECORD_FIELDS + ID] = NaN;
    freePositions.push(position);
    if (keysUsed > 1024 && keysLive * 2 < keysUsed) compact();
  };

  const add = (id: number, keys: readonly SearchKey[]) => {
    const held = positions.has(id);
    remove(id);
    // Written again, a record takes the position just freed, its own. One with an id below the
    // greatest, or once positions are out of id order, takes a freed one if any; any other, and
    // those when none is free, a new one at the end.
    let position = held || id < greatestId || !inIdOrder ? freePositions.pop() : undefined;
    if (position === undefined) {
      position = nextPosition++;
      if (position * RECORD_FIELDS === records.length) records = grown(records, 0);
      if (id < greatestId) inIdOrder = false;
    } else if (!held) inIdOrder = false;
    greatestId = Math.max(greatestId, id);
    positions.set(id, position);
    records[position * RECORD_FIELDS + ID] = id;
    putKeys(position, keys);
    keysLive += keys.length;
    names.count(keys, 1);
    for (const key of suggestionKeyValues(keys)) post(key, position);
    if (postingsUsed >= packedAt * 2) pack();
  };

  // Scratch of every answer, put back to all 0 before it ends: the positions the pass at hand finds
  // and their ranks, in an open-addressing table of [position + 1 (0: an empty place), rank] pairs
  // twice the size of the pass's postings at least, and its places found; each string's number in
  // the answer, plus one (0: not in it). A table the size of the pass rather than an array of every
  // position: at ten million births such an array is 40 MB, and a walk through a common name's tens
  // of thousands of postings missed the cache at each of them (half of a close match's CPU).
  let passTable = new Int32Array(1024 * 2);
  const found: number[] = [];
  const keyPlaces: number[] = [];
  let localOf = new Int32Array(1024);
  const candidates = (passes: readonly KeyPass[]): SuggestionCandidates => {
    // The positions chosen by the passes, a position chosen by several more than once, made distinct
    // once sorted (rather than marked in an array of every position, a cache miss each).
    const chosen: number[] = [];
    const choose = (position: number) => chosen.push(position);
    let truncated = false;
    for (const pass of passes) {
      // By position, its rank as one number, higher first: how many of the pass's keys it shares,
      // then how early the first of them comes (keys.ts).
      const passKeys = [...new Set(pass.keys.map(keyOfGiven))];
      let postingCount = 0;
      for (const key of passKeys) {
        const place = placeOf(key);
        keyPlaces.push(place);
        if (table[place * 2] !== 0) postingCount += table[place * 2] - 1;
      }
      let places = 1024;
      while (places < postingCount * 2) places *= 2;
      if (passTable.length < places * 2) passTable = new Int32Array(places * 2);
      const mask = places - 1;
      const shift = 32 - Math.log2(places);
      for (let at = 0; at < passKeys.length; at++) {
        const place = keyPlaces[at];
        if (table[place * 2] === 0) continue;
        for (let posting = table[place * 2 + 1]; posting !== NONE; posting = postings[posting * 2 + 1]) {
          const held = postings[posting * 2] + 1;
          let slot = Math.imul(held, 0x9e3779b1) >>> shift;
          while (passTable[slot * 2] !== held && passTable[slot * 2] !== 0) slot = (slot + 1) & mask;
          if (passTable[slot * 2] === 0) {
            passTable[slot * 2] = held;
            passTable[slot * 2 + 1] = passKeys.length - at;
            found.push(slot);
          } else passTable[slot * 2 + 1] += passKeys.length + 1;
        }
      }
      keyPlaces.length = 0;
      if (found.length <= pass.limit) {
        // All of them: no need to rank.
        for (const slot of found) choose(passTable[slot * 2] - 1);
      } else {
        // The `limit`-th highest rank: every position above it, then those at it by id.
        // (A typed array filled by a loop and sorted without a comparison function: V8's native sort.)
        const ranks = new Int32Array(found.length);
        for (let i = 0; i < found.length; i++) ranks[i] = passTable[found[i] * 2 + 1];
        ranks.sort();
        const least = ranks[ranks.length - pass.limit];
        const tied: number[] = [];
        let left = pass.limit;
        for (const slot of found) {
          const rank = passTable[slot * 2 + 1];
          if (rank > least) {
            choose(passTable[slot * 2] - 1);
            left--;
          } else if (rank === least) tied.push(passTable[slot * 2] - 1);
        }
        for (const position of leastIds(tied, left, inIdOrder ? undefined : records)) choose(position);
        truncated = true;
      }
      for (const slot of found) passTable[slot * 2] = 0;
      found.length = 0;
    }
    // By id, each once: positions sorted natively as numbers, where they are in id order, or by id.
    let order = inIdOrder
      ? Int32Array.from(chosen).sort()
      : Int32Array.from(chosen.sort((a, b) => records[a * RECORD_FIELDS] - records[b * RECORD_FIELDS]));
    let distinct = 0;
    for (let i = 0; i < order.length; i++) if (i === 0 || order[i] !== order[i - 1]) order[distinct++] = order[i];
    order = order.subarray(0, distinct);
    // The answer is written in steps, each reading for every candidate before the next step uses
    // what it read: reads of records that lie far apart in memory, each a cache miss at ten million
    // births, then wait on each other's misses at once rather than one after another.
    // Each candidate's id, where its keys lie, and where they go in the answer.
    const from = new Int32Array(order.length);
    const starts = new Int32Array(order.length + 1);
    const answered: number[] = [];
    let keyCount = 0;
    for (let i = 0; i < order.length; i++) {
      const at = order[i] * RECORD_FIELDS;
      from[i] = records[at + FIRST_KEY] * 3;
      starts[i] = keyCount;
      keyCount += records[at + KEY_COUNT];
      answered.push(records[at + ID]);
    }
    starts[order.length] = keyCount;
    // Their keys, as the table's numbers of their strings.
    const keys = new Int32Array(keyCount * 3);
    for (let i = 0; i < order.length; i++)
      for (let k = from[i], at = starts[i] * 3, end = starts[i + 1] * 3; at < end; k++, at++) keys[at] = keyColumns[k];
    // Each key's strings numbered afresh, in the order first met (localOf: each string's number
    // here plus one, 0 for none yet, put back to 0 after), so that the answer names only the
    // strings its candidates hold.
    if (localOf.length < strings.table.length) localOf = new Int32Array(strings.table.length * 2);
    const text: string[] = [];
    const met: number[] = [];
    for (let at = 0; at < keys.length; at++) {
      const global = keys[at];
      if (localOf[global] === 0) {
        localOf[global] = text.push(strings.table[global]);
        met.push(global);
      }
      keys[at] = localOf[global] - 1;
    }
    for (const global of met) localOf[global] = 0;
    return { ids: answered, starts, keys, strings: text, truncated };
  };

  const nameCounts = (surname: string, forename: string) => ({
    surname: names.surnames.get(surname) ?? 0,
    forename: names.forenames.get(forename) ?? 0,
  });

  return { add, remove, candidates, nameCounts, settle };
}
