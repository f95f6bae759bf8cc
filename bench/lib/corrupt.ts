/**
 * The corruptions of the close-match evaluation: each turns the details of a registration (a party's
 * surname and forenames as registered, one of its dates) into what a caseworker might hold instead,
 * or says it cannot (a forename with no pet form, a day above 12 for day and month exchanged). Seeded:
 * the same Random gives the same corruptions.
 */
import { addDays } from '../../src/match/dates.ts';
import { soundAlike } from '../../src/match/names.ts';
import { nicknamesOf } from '../../src/match/nicknames.ts';
import { isIsoDate } from '../../src/records/dates.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import type { Random } from '../../src/generate/random.ts';

export interface Details {
  readonly surname: string;
  readonly forenames: string;
  readonly date: string;
}

export type Corruption = (details: Details, r: Random) => Details | undefined;

const capitalised = (word: string) => word[0].toUpperCase() + word.slice(1);
const words = (name: string) => name.split(/[\s-]+/).filter(Boolean);

/**
 * Rewrites that keep a name's sound (Double Metaphone's), tried in a random order until one changes it and
 * still sounds alike.
 */
const SOUND_REWRITES: readonly [RegExp, string][] = [
  [/y/, 'i'],
  [/i/, 'y'],
  [/ph/, 'f'],
  [/f/, 'ph'],
  [/c(?=[aou])/, 'k'],
  [/k/, 'c'],
  [/ck/, 'k'],
  [/ee/, 'ea'],
  [/ea/, 'ee'],
  [/([bdfglmnprst])\1/, '$1'],
  [/([bdglmnprt])(?=[aeiou])/, '$1$1'],
  [/e$/, ''],
  [/([^e])$/, '$1e'],
  [/son$/, 'sen'],
  [/sen$/, 'son'],
  [/ai/, 'ay'],
  [/ay/, 'ai'],
  [/ou/, 'ow'],
  [/z/, 's'],
  [/s(?=[aeiou])/, 'z'],
  [/th/, 't'],
  [/ie$/, 'y'],
  [/y$/, 'ie'],
];

function soundVariant(name: string, r: Random): string | undefined {
  const plain = normaliseName(name).replaceAll(' ', '');
  const order = [...SOUND_REWRITES];
  for (let i = order.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const [pattern, replacement] of order) {
    const changed = plain.replace(pattern, replacement);
    if (changed !== plain && changed.length > 1 && soundAlike(plain, changed)) return capitalised(changed);
  }
  return undefined;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One random edit (a letter changed, dropped, added, or two neighbours swapped) of a word of four letters or more. */
function oneEdit(word: string, r: Random): string | undefined {
  const w = normaliseName(word).replaceAll(' ', '');
  if (w.length < 4 || !/^[a-z]+$/.test(w)) return undefined;
  const at = r.int(1, w.length - 1);
  let changed: string;
  switch (r.int(0, 3)) {
    case 0:
      changed = w.slice(0, at) + r.pick([...LETTERS.replace(w[at], '')]) + w.slice(at + 1);
      break;
    case 1:
      changed = w.slice(0, at) + w.slice(at + 1);
      break;
    case 2:
      changed = w.slice(0, at) + r.pick([...LETTERS]) + w.slice(at);
      break;
    default:
      changed =
        at < w.length - 1
          ? w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2)
          : w.slice(0, at - 1) + w[at] + w[at - 1];
  }
  return changed === w ? undefined : capitalised(changed);
}

const firstForename = (d: Details) => words(d.forenames)[0];

/** The single corruptions, by name. */
export const SINGLE: Readonly<Record<string, Corruption>> = {
  none: (d) => d,
  nickname: (d, r) => {
    const first = firstForename(d);
    const variants = first ? nicknamesOf(normaliseName(first)) : [];
    return variants.length ? { ...d, forenames: capitalised(r.pick(variants)) } : undefined;
  },
  'sound-alike': (d, r) => {
    const surname = words(d.surname).length === 1 ? soundVariant(d.surname, r) : undefined;
    return surname ? { ...d, surname } : undefined;
  },
  'spelling-surname': (d, r) => {
    const surname = words(d.surname).length === 1 ? oneEdit(d.surname, r) : undefined;
    return surname ? { ...d, surname } : undefined;
  },
  'spelling-forename': (d, r) => {
    const first = firstForename(d);
    const edited = first ? oneEdit(first, r) : undefined;
    return edited ? { ...d, forenames: edited } : undefined;
  },
  'part-of-name': (d, r) => {
    const surnames = words(d.surname);
    if (surnames.length > 1) return { ...d, surname: r.pick(surnames) };
    const forenames = words(d.forenames);
    return forenames.length > 1 ? { ...d, forenames: forenames[1] } : undefined;
  },
  swapped: (d) => {
    const first = firstForename(d);
    return first ? { ...d, surname: first, forenames: d.surname } : undefined;
  },
  'day-month-swapped': (d) => {
    const [year, month, day] = d.date.split('-');
    const swapped = `${year}-${day}-${month}`;
    return day !== month && isIsoDate(swapped) ? { ...d, date: swapped } : undefined;
  },
  'near-date': (d, r) => ({ ...d, date: addDays(d.date, r.pick([-3, -2, -1, 1, 2, 3])) }),
  'digit-in-date': (d, r) => {
    for (let tries = 0; tries < 10; tries++) {
      const positions = [2, 3, 5, 6, 8, 9];
      const at = r.pick(positions);
      const digit = String(r.int(0, 9));
      const changed = d.date.slice(0, at) + digit + d.date.slice(at + 1);
      if (changed !== d.date && isIsoDate(changed)) return { ...d, date: changed };
    }
    return undefined;
  },
};

const NAME_KINDS = [
  'nickname',
  'sound-alike',
  'spelling-surname',
  'spelling-forename',
  'part-of-name',
  'swapped',
] as const;
const DATE_KINDS = ['day-month-swapped', 'near-date', 'digit-in-date'] as const;

/**
 * Pairs of corruptions: each name corruption with each date corruption, and two name corruptions of
 * different names.
 */
export const PAIRS: Readonly<Record<string, Corruption>> = Object.fromEntries(
  [
    ...NAME_KINDS.flatMap((name) => DATE_KINDS.map((date) => [name, date] as const)),
    ['nickname', 'spelling-surname'] as const,
    ['sound-alike', 'spelling-forename'] as const,
  ].map(([a, b]) => [
    `${a} + ${b}`,
    (d: Details, r: Random) => {
      const once = SINGLE[a](d, r);
      return once && SINGLE[b](once, r);
    },
  ]),
);
