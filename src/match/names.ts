/**
 * How a name given in a query compares with a registered one, both normalised (normaliseName):
 * the rules of close matching for names, each giving the level it found. The levels, their
 * order and their weights are in `vocabulary.ts`; docs/search.md describes them with examples.
 */
import { doubleMetaphone } from 'double-metaphone';
import { areNicknames } from './nicknames.ts';
import { jaroWinkler } from '@skyra/jaro-winkler';
import { type Detail, MATCH_KINDS, type MatchKind, levelRank } from './vocabulary.ts';

/** Three rows of the distance table, reused by every call (grown when a longer name comes). */
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/**
 * Insertions, deletions, substitutions and swaps of two neighbouring letters (the optimal string
 * alignment distance) turning `a` into `b`, or `max + 1` when it exceeds `max`. Only the cells
 * within `max` of the diagonal are worked out: any other is further than `max` already.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const over = max + 1;
  const width = b.length + 1;
  if (rows[0].length < width) rows = [new Int32Array(width * 2), new Int32Array(width * 2), new Int32Array(width * 2)];
  let [before, previous, current] = rows;
  for (let j = 0; j < width; j++) previous[j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    current[0] = i <= max ? i : over;
    if (from > 1) current[from - 1] = over;
    let rowMin = current[0];
    const ai = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const bj = b.charCodeAt(j - 1);
      let value = previous[j - 1] + (ai === bj ? 0 : 1);
      if (previous[j] + 1 < value) value = previous[j] + 1;
      if (current[j - 1] + 1 < value) value = current[j - 1] + 1;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && before[j - 2] + 1 < value)
        value = before[j - 2] + 1;
      if (value > over) value = over;
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (to < b.length) current[to + 1] = over;
    if (rowMin > max) return over;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}

const codeCache = new Map<string, readonly string[]>();
const CODE_CACHE_SIZE = 50_000;

/**
 * The Double Metaphone codes of one word (its primary and, when different, its alternative): words
 * that sound alike share one. A word with no code (digits, a script the algorithm does not read)
 * is its own code, marked so that it cannot equal a real one.
 */
export function soundCodes(word: string): readonly string[] {
  let codes = codeCache.get(word);
  if (codes) return codes;
  const [primary, alternative] = doubleMetaphone(word);
  codes = !primary ? [`=${word}`] : alternative && alternative !== primary ? [primary, alternative] : [primary];
  // Names repeat: most are looked up again. Cleared whole when full, which keeps it simple and bounded.
  if (codeCache.size >= CODE_CACHE_SIZE) codeCache.clear();
  codeCache.set(word, codes);
  return codes;
}

/**
 * Whether two different words sound alike: they share a code, and that code is of two sounds or
 * more or the words begin with the same letter (Zoe and Sue share the one-sound code S; they are
 * not taken as alike).
 */
export const soundAlike = (a: string, b: string): boolean => soundsAlike(a, soundCodes(a), b);

/** soundAlike, the first word's codes given. */
function soundsAlike(a: string, codesA: readonly string[], b: string): boolean {
  const codesB = soundCodes(b);
  return codesA.some((code) => codesB.includes(code) && !code.startsWith('=') && (code.length > 1 || a[0] === b[0]));
}

/**
 * A name given in a query, split into its words and each word's sound codes worked out once: a
 * query's name is compared with every candidate's.
 */
export interface GivenName {
  readonly text: string;
  readonly words: readonly string[];
  readonly codes: readonly (readonly string[])[];
}

export function givenName(text: string): GivenName {
  const words = text.split(' ');
  return { text, words, codes: words.map(soundCodes) };
}

interface NameMatch {
  readonly kind: MatchKind;
}

/** One answer a level, shared: comparing allocates nothing. */
const FOUND = Object.fromEntries(MATCH_KINDS.map((kind) => [kind, Object.freeze({ kind })])) as Record<
  MatchKind,
  NameMatch
>;
const found = (kind: MatchKind): NameMatch => FOUND[kind];
const DIFFERENT = found('different');

/**
 * Winkler's step: Jaro similarity raised for a common start, counted as `@skyra/jaro-winkler` counts
 * it (past both ends counts as the same, and four letters the same count as five).
 */
function withCommonStart(a: string, b: string, jaro: number): number {
  let prefix = 0;
  for (; prefix < 4; prefix++) {
    const same =
      prefix < a.length && prefix < b.length
        ? a.charCodeAt(prefix) === b.charCodeAt(prefix)
        : prefix >= a.length && prefix >= b.length;
    if (!same) break;
  }
  if (prefix === 4) prefix = 5;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Which letters of each word matched, reused by every call (grown when a longer word comes). */
let matchedA = new Uint8Array(32);
let matchedB = new Uint8Array(32);

const hasSurrogate = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
};

/**
 * Jaro-Winkler similarity as `@skyra/jaro-winkler` computes it, to the last bit (a test holds the
 * two equal), over UTF-16 code units and reused buffers: the package spreads each word into an array
 * of code points and allocates two more arrays a call, which was most of the cost of scoring a close
 * match's candidates. A word with a character outside the Basic Multilingual Plane (two code units)
 * is left to the package.
 */
export function similarity(a: string, b: string): number {
  if (hasSurrogate(a) || hasSurrogate(b)) return jaroWinkler(a, b);
  const la = a.length;
  const lb = b.length;
  if (matchedA.length < la) matchedA = new Uint8Array(la * 2);
  if (matchedB.length < lb) matchedB = new Uint8Array(lb * 2);
  matchedA.fill(0, 0, la);
  matchedB.fill(0, 0, lb);
  const window = Math.floor(Math.max(la, lb) / 2);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const letter = a.charCodeAt(i);
    const end = Math.min(i + window + 1, lb);
    for (let j = Math.max(0, i - window); j < end; j++) {
      if (matchedB[j] || b.charCodeAt(j) !== letter) continue;
      matchedA[i] = 1;
      matchedB[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let halfTranspositions = 0;
  for (let i = 0, j = 0; i < la; i++) {
    if (!matchedA[i]) continue;
    while (j < lb && !matchedB[j]) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) halfTranspositions++;
    j++;
  }
  const transpositions = Math.floor(halfTranspositions / 2);
  const jaro = (matches / la + matches / lb + (matches - transpositions) / matches) / 3;
  return withCommonStart(a, b, jaro);
}

/** Jaro-Winkler similarity at or above which two names are `similar`, and `loosely-similar`. */
const SIMILAR = 0.9;
const LOOSELY_SIMILAR = 0.8;

/** Counts of each code unit below 128, reused by every call and left all zero. */
const letterCounts = new Int32Array(128);

/**
 * How many letters two words have in common, as multisets (`aab` and `abb` two): no alignment of
 * the two matches more letters, neither Jaro's nor an edit script's. -1 for words with a code unit
 * from 128 up, which this does not count.
 */
export function commonLetters(a: string, b: string): number {
  let common = 0;
  let counted = 0;
  for (; counted < a.length; counted++) {
    const c = a.charCodeAt(counted);
    if (c >= 128) break;
    letterCounts[c]++;
  }
  if (counted < a.length) common = -1;
  else {
    for (let j = 0; j < b.length; j++) {
      const c = b.charCodeAt(j);
      if (c >= 128) {
        common = -1;
        break;
      }
      if (letterCounts[c] > 0) {
        letterCounts[c]--;
        common++;
      }
    }
  }
  for (let k = 0; k < counted; k++) letterCounts[a.charCodeAt(k)] = 0;
  return common;
}

/**
 * The most Jaro-Winkler similarity two words with `common` letters in common can have: Jaro's
 * matches are at most those letters and its transpositions at least none, and the common start is
 * counted as `similarity` counts it (`withCommonStart`). Written as `similarity` writes it, so that
 * the bound is the similarity itself when every common letter matches in place.
 */
function mostSimilarity(a: string, b: string, common: number): number {
  if (common === 0) return 0;
  const jaro = Math.min(1, (common / a.length + common / b.length + (common - 0) / common) / 3);
  return withCommonStart(a, b, jaro);
}

/**
 * Two spellings against each other: one edit (from 4 letters, the OpenCRVS rule), two edits (from 5),
 * then by Jaro-Winkler similarity, which weighs the letters in common and a shared start. Most
 * names compared are different, and the letters they have in common tell so at a fraction of the
 * cost of either measure: each letter of the longer word not in common is an edit at least, and
 * the similarity is at most what those letters allow.
 */
function bySpelling(query: string, stored: string): NameMatch {
  const longer = Math.max(query.length, stored.length);
  const common = commonLetters(query, stored);
  const bounded = common >= 0;
  if (longer >= 4) {
    const most = longer >= 5 ? 2 : 1;
    if (!bounded || longer - common <= most) {
      const edits = editDistance(query, stored, most);
      if (edits <= 1) return found('spelling');
      if (edits <= most) return found('two-edits');
    }
  }
  if (bounded && mostSimilarity(query, stored, common) < LOOSELY_SIMILAR) return DIFFERENT;
  const alike = similarity(query, stored);
  return alike >= SIMILAR ? found('similar') : alike >= LOOSELY_SIMILAR ? found('loosely-similar') : DIFFERENT;
}

/**
 * Word `w` of a name given against a registered word: the same, a pet form (forenames only), alike
 * in sound, or spelt alike.
 */
function compareWord(given: GivenName, w: number, stored: string, nicknames: boolean): NameMatch {
  const query = given.words[w];
  if (query === stored) return found('exact');
  if (nicknames && areNicknames(query, stored)) return found('nickname');
  if (soundsAlike(query, given.codes[w], stored)) return found('sound-alike');
  return bySpelling(query, stored);
}

/** The weakest of the matches (the latest level of the detail's): a name matches only as well as its worst word. */
function weakest(detail: Detail, matches: readonly NameMatch[]): NameMatch {
  if (matches.length === 1) return matches[0];
  return matches.reduce((worst, match) =>
    levelRank(detail, match.kind) > levelRank(detail, worst.kind) ? match : worst,
  );
}

/**
 * Each word of the shorter name is a word of the longer (a hyphenated or double surname given in part, a
 * middle name given as the first).
 */
function partOfName(queryWords: readonly string[], storedWords: readonly string[]): boolean {
  const [shorter, longer] =
    queryWords.length <= storedWords.length ? [queryWords, storedWords] : [storedWords, queryWords];
  return shorter.length < longer.length && shorter.every((word) => longer.includes(word));
}

/** The whole names as one string against each other (spaces count as letters). */
const wholeSpelling = (query: string, stored: string): NameMatch => bySpelling(query, stored);

const givenOf = (query: string | GivenName) => (typeof query === 'string' ? givenName(query) : query);

/**
 * A name's first word: the first forename, which the register's counts, a close match's prior and a
 * check for exchanged names take.
 */
export const firstWord = (name: string) => {
  const space = name.indexOf(' ');
  return space < 0 ? name : name.slice(0, space);
};

/** A registered name's words: most names are one, and are not split. */
const wordsOf = (stored: string) => (stored.indexOf(' ') < 0 ? [stored] : stored.split(' '));

/**
 * A surname given against one registered. Word by word when both have as many words (Smyth-Jones
 * for Smith-Jones is alike in sound), else as part of the name, else as a whole spelling.
 */
export function compareSurname(query: string | GivenName, stored: string): NameMatch {
  const given = givenOf(query);
  if (given.text === stored) return found('exact');
  const storedWords = wordsOf(stored);
  const queryWords = given.words;
  if (queryWords.length === storedWords.length && queryWords.length > 1) {
    const byWord = weakest(
      'surname',
      queryWords.map((_, i) => compareWord(given, i, storedWords[i], false)),
    );
    if (byWord.kind !== 'different') return byWord;
  }
  if (queryWords.length === 1 && storedWords.length === 1) return compareWord(given, 0, stored, false);
  if (partOfName(queryWords, storedWords)) return found('part-of-name');
  return wholeSpelling(given.text, stored);
}

/**
 * Forenames given against those registered. The exact search's rule first (the registered
 * forenames' leading whole words equal to those given is a word prefix), then word by word against
 * as many leading registered words as were given (Bill for William Henry is a nickname), then as
 * part of the name (Rose for Eleanor Rose), then as a whole spelling. Registered forenames that are
 * empty (none recorded) are missing, neither a match nor a difference.
 */
export function compareForenames(query: string | GivenName, stored: string): NameMatch {
  if (stored === '') return found('missing');
  const given = givenOf(query);
  if (given.text === stored) return found('exact');
  if (stored.startsWith(given.text) && stored.charCodeAt(given.text.length) === 0x20) return found('word-prefix');
  const queryWords = given.words;
  const storedWords = wordsOf(stored);
  if (queryWords.length <= storedWords.length) {
    const byWord = weakest(
      'forenames',
      queryWords.map((_, i) => compareWord(given, i, storedWords[i], true)),
    );
    if (byWord.kind !== 'different' && byWord.kind !== 'loosely-similar') return byWord;
  }
  if (partOfName(queryWords, storedWords)) return found('part-of-name');
  return wholeSpelling(given.text, stored);
}
