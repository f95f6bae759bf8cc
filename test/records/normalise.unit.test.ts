import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { normaliseName, normaliseUnicode } from '../../src/records/normalise.ts';
import { INVISIBLE } from './invisible.ts';

/**
 * Names made of the pieces that matter: letters (plain, accented, folded), apostrophes, hyphens, spaces,
 * odd punctuation.
 */
const namePiece = fc.constantFrom(
  'a',
  'Z',
  'é',
  'É',
  'ë',
  'Ë',
  'ø',
  'Ø',
  'ß',
  'ẞ',
  'æ',
  'Æ',
  'ł',
  'Ł',
  'ñ',
  'ç',
  'œ',
  'þ',
  'İ',
  'ı',
  'Σ',
  'ж',
  '李',
  '7',
  "'",
  '’',
  '‘',
  'ʼ',
  '`',
  '-',
  '‐',
  '–',
  ' ',
  '  ',
  '\t',
  '\n',
  '\u00a0',
  '\u3000',
  '.',
  ',',
  '(',
  ')',
  '/',
  '\u0000',
  '\u001f',
  '\u0301',
  '\u0308',
  'ﬁ',
  'Ⅻ',
  '¹',
);
const nameLike = fc.array(namePiece, { maxLength: 24 }).map((pieces) => pieces.join(''));
/** Any text at all, including astral characters, controls and lone combining marks. */
const anyText = fc.oneof(
  nameLike,
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

const RUNS = { numRuns: 2000 };

describe('normaliseName', () => {
  test('takes ASCII text the short way to the same result as the whole rule', () => {
    const ascii = fc.string({
      unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
      maxLength: 40,
    });
    fc.assert(
      fc.property(ascii, (name) => normaliseName(name) === normaliseUnicode(name)),
      { numRuns: 5000 },
    );
    for (const name of ["O'Brien-Smith", ' Anne  MARIE ', 'a`b', '\tX\u0000y\u007f', ''])
      assert.equal(normaliseName(name), normaliseUnicode(name));
  });

  test('ignores case', () => {
    assert.equal(normaliseName('SMITH'), 'smith');
    assert.equal(normaliseName('McDonald'), 'mcdonald');
    assert.equal(normaliseName('ÉLODIE'), normaliseName('élodie'));
  });

  test('drops accents and folds the letters Unicode does not decompose', () => {
    assert.equal(normaliseName('Élodie'), 'elodie');
    assert.equal(normaliseName('Zoë'), 'zoe');
    assert.equal(normaliseName('Brontë'), 'bronte');
    assert.equal(normaliseName('Søren Ørsted'), 'soren orsted');
    assert.equal(normaliseName('Straße'), 'strasse');
    assert.equal(normaliseName('STRAẞE'), 'strasse');
    assert.equal(normaliseName('Æthelred'), 'aethelred');
    assert.equal(normaliseName('Cæsar'), 'caesar');
    assert.equal(normaliseName('Łukasz Wałęsa'), 'lukasz walesa');
    assert.equal(normaliseName('François Nuñez'), 'francois nunez');
    assert.equal(normaliseName('Œuvre'), 'oeuvre');
    assert.equal(normaliseName('Þór'), 'thor');
    assert.equal(normaliseName('İbrahim'), 'ibrahim');
    // Decomposed input (e + combining acute) is the same as the precomposed letter.
    assert.equal(normaliseName('E\u0301lodie'), normaliseName('Élodie'));
  });

  test('removes apostrophes, straight and curly', () => {
    assert.equal(normaliseName("O'Brien"), 'obrien');
    assert.equal(normaliseName('O’Brien'), 'obrien');
    assert.equal(normaliseName('O‘Brien'), 'obrien');
    assert.equal(normaliseName('Oʼbrien'), 'obrien');
    assert.equal(normaliseName("D'Arcy"), normaliseName('DArcy'));
  });

  test('turns hyphens, punctuation and runs of spaces into one space', () => {
    assert.equal(normaliseName('Anne-Marie'), 'anne marie');
    assert.equal(normaliseName('Anne - Marie'), 'anne marie');
    assert.equal(normaliseName('Anne--Marie'), 'anne marie');
    assert.equal(normaliseName('Anne‐Marie'), 'anne marie'); // U+2010 hyphen
    assert.equal(normaliseName('Anne   Marie'), 'anne marie');
    assert.equal(normaliseName('Anne\tMarie\nLouise'), 'anne marie louise');
    assert.equal(normaliseName('Anne\u00a0Marie'), 'anne marie');
    assert.equal(normaliseName('Smith-Jones, John (Jr.)'), 'smith jones john jr');
  });

  test('trims the ends', () => {
    assert.equal(normaliseName('  Smith  '), 'smith');
    assert.equal(normaliseName('-Smith-'), 'smith');
    assert.equal(normaliseName("'Smith'"), 'smith');
    assert.equal(normaliseName(''), '');
    assert.equal(normaliseName('   '), '');
    assert.equal(normaliseName(" - ' - "), '');
  });

  test('drops invisible format characters (Cf) instead of splitting the word', () => {
    for (const invisible of INVISIBLE) {
      assert.equal(normaliseName(`Ash${invisible}worth`), 'ashworth', JSON.stringify(invisible));
      assert.equal(normaliseName(`${invisible}Eleanor Rose${invisible}`), 'eleanor rose', JSON.stringify(invisible));
    }
    // Between words they are nothing; the space still separates.
    assert.equal(normaliseName('Eleanor \u200d Rose'), 'eleanor rose');
  });

  test('keeps digits and letters of other scripts', () => {
    assert.equal(normaliseName('Henry 8'), 'henry 8');
    assert.equal(normaliseName('李 小龍'), '李 小龍');
    assert.equal(normaliseName('Жуков'), 'жуков');
  });

  test('is idempotent (property)', () => {
    fc.assert(
      fc.property(anyText, (name) => {
        const once = normaliseName(name);
        assert.equal(normaliseName(once), once);
      }),
      RUNS,
    );
  });

  test('never leaves a space at either end nor two in a row (property)', () => {
    fc.assert(
      fc.property(anyText, (name) => {
        const out = normaliseName(name);
        assert.ok(!out.startsWith(' '), JSON.stringify(out));
        assert.ok(!out.endsWith(' '), JSON.stringify(out));
        assert.ok(!out.includes('  '), JSON.stringify(out));
      }),
      RUNS,
    );
  });

  test(
    "never holds a character below '!' other than the space (property; the store's word-prefix range " +
      'relies on it)',
    () => {
      fc.assert(
        fc.property(anyText, (name) => {
          for (const c of normaliseName(name))
            assert.ok(c === ' ' || c >= '!', `${JSON.stringify(name)} gave ${JSON.stringify(c)}`);
        }),
        RUNS,
      );
    },
  );

  test('holds only lower-case letters, digits and single spaces (property)', () => {
    fc.assert(
      fc.property(anyText, (name) => {
        const out = normaliseName(name);
        assert.match(out, /^[\p{L}\p{N} ]*$/u);
        assert.equal(out, out.toLowerCase());
        assert.doesNotMatch(out, /['’\-\p{M}]/u);
      }),
      RUNS,
    );
  });

  test('ignores case, apostrophes and separators in the source (property)', () => {
    const plain = fc
      .array(fc.constantFrom('a', 'b', 'e', 'é', 'ø', 'ß', 'æ', 'ł', 'z'), { minLength: 1, maxLength: 8 })
      .map((c) => c.join(''));
    fc.assert(
      fc.property(
        fc.array(plain, { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(' ', '  ', '-', ' - ', '\t', ', '), { minLength: 4, maxLength: 4 }),
        fc.constantFrom("'", '’', ''),
        (words, separators, apostrophe) => {
          const canonical = normaliseName(words.join(' '));
          const messy = ` ${words.map((w, i) => (i ? separators[i] : '') + apostrophe + w.toUpperCase()).join('')} `;
          assert.equal(normaliseName(messy), canonical);
        },
      ),
      RUNS,
    );
  });

  test('a query that is a word prefix of a stored name sorts inside [q, q + "!") (property)', () => {
    // The store finds forenames f for query q by the range q <= f < q + '!' in the "C" collation (code-point order).
    fc.assert(
      fc.property(nameLike, nameLike, (a, b) => {
        const q = normaliseName(a);
        const rest = normaliseName(b);
        fc.pre(q.length > 0 && rest.length > 0);
        const stored = `${q} ${rest}`;
        assert.ok(stored >= q && stored < `${q}!`, JSON.stringify({ q, stored }));
        // And a longer word starting with q is outside the range (anne does not find annette).
        const longer = q + rest.replace(/ /g, '');
        assert.ok(!(longer >= q && longer < `${q}!`), JSON.stringify({ q, longer }));
      }),
      RUNS,
    );
  });
});
