/**
 * A close match's candidates as the stores answer them (SuggestionCandidates, model/records.ts),
 * written and read: each distinct date and name of their search keys once, and each key three
 * numbers naming them. A query
 * brings some 200 candidates at a million births, sharing a few dozen names and dates: scored by
 * those numbers (score.ts), each distinct string is compared once and a candidate costs a few
 * array reads, where a search-key object a key cost an allocation and reads scattered across the
 * heap (docs/performance.md).
 */
import type { SearchKey, SuggestionCandidates } from '../model/records.ts';

/**
 * Records with their keys (ids ascending), packed, each distinct string numbered once: a record without keys
 * is no candidate.
 */
export function packCandidates(
  records: readonly { readonly id: number; readonly keys: readonly SearchKey[] }[],
  truncated = false,
): SuggestionCandidates {
  const ids: number[] = [];
  const starts: number[] = [];
  const keys: number[] = [];
  const strings: string[] = [];
  const numbers = new Map<string, number>();
  const numberOf = (text: string) => {
    let n = numbers.get(text);
    if (n === undefined) {
      n = strings.push(text) - 1;
      numbers.set(text, n);
    }
    return n;
  };
  for (const record of records) {
    if (!record.keys.length) continue;
    ids.push(record.id);
    starts.push(keys.length / 3);
    for (const key of record.keys) keys.push(numberOf(key.date), numberOf(key.surname), numberOf(key.forenames));
  }
  return {
    ids,
    starts: Int32Array.from([...starts, keys.length / 3]),
    keys: Int32Array.from(keys),
    strings,
    truncated,
  };
}

/** Key k of the candidates, as a search key. */
export function keyAt({ keys, strings }: SuggestionCandidates, k: number): SearchKey {
  return { date: strings[keys[k * 3]], surname: strings[keys[k * 3 + 1]], forenames: strings[keys[k * 3 + 2]] };
}

/** Each candidate with its keys as search keys, for tests and tools rather than scoring. */
export function unpackCandidates(found: SuggestionCandidates): { id: number; keys: SearchKey[] }[] {
  return found.ids.map((id, i) => ({
    id,
    keys: Array.from({ length: found.starts[i + 1] - found.starts[i] }, (_, j) => keyAt(found, found.starts[i] + j)),
  }));
}
