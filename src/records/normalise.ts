/**
 * Name normalisation shared by storage (match keys written at load) and by
 * search (the query is normalised the same way), so the two can never drift.
 *
 * - case is ignored;
 * - accents and other diacritics are dropped (é = e), and the letters that
 *   Unicode does not decompose are folded by hand (ø = o, ß = ss, æ = ae);
 * - apostrophes are absent (O'Brien = OBrien);
 * - invisible format characters (Unicode category Cf: zero-width joiners and
 *   non-joiners, soft hyphens, byte-order marks) are absent, so a name pasted
 *   with one is the name without it, not two words;
 * - every run of spaces, hyphens and other punctuation is one space
 *   (Anne-Marie = Anne Marie), and the ends are trimmed.
 *
 * The result holds only [a-z0-9 ] and some letters of non-Latin scripts, never
 * a space at either end nor two in a row, so "word prefix" is a plain string
 * range in the "C" collation (see the store).
 */
const FOLDED: Record<string, string> = {
  ø: 'o',
  Ø: 'o',
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  þ: 'th',
  Þ: 'th',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
  ħ: 'h',
  Ħ: 'h',
};
const UNFOLDED = new RegExp(`[${Object.keys(FOLDED).join('')}]`, 'g');
const COMBINING = /\p{M}+/gu;
const APOSTROPHES = /['‘’ʼ`´]/g;
const FORMAT = /\p{Cf}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

// ASCII text needs none of the Unicode steps (no format, combining or unfolded characters, NFKD
// changes nothing), so most names take the short way to the same result; a test holds the two equal.
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_APOSTROPHES = /['`]/g;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;

export function normaliseName(name: string): string {
  if (ASCII.test(name)) return name.replace(ASCII_APOSTROPHES, '').toLowerCase().replace(ASCII_SEPARATORS, ' ').trim();
  return normaliseUnicode(name);
}

/** The whole rule, for any text. */
export function normaliseUnicode(name: string): string {
  return name
    .replace(FORMAT, '')
    .normalize('NFKD')
    .replace(COMBINING, '')
    .replace(UNFOLDED, (c) => FOLDED[c])
    .replace(APOSTROPHES, '')
    .toLowerCase()
    .replace(SEPARATORS, ' ')
    .trim();
}
