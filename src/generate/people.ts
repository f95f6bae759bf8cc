/**
 * The people of generated records: the community a family belongs to, their names by era of birth,
 * occupations by sex and working years, and the officials who sign. Pools are weighted once, when
 * the module loads, so each name costs one weighted draw.
 */
import { type ByEra, COMMUNITIES, FEMALE_PREFIXES, MALE_PREFIXES, SUFFIXES } from './names.ts';
import { type Random, Weighted } from './random.ts';
import { DOCTOR_QUALIFICATIONS, OCCUPATIONS } from './register-words.ts';

const unique = (items: readonly string[]) => [...new Set(items)];
const byEra = <T, U>(era: ByEra<T>, f: (list: T) => U): ByEra<U> => ({
  classic: f(era.classic),
  mid: f(era.mid),
  modern: f(era.modern),
});

interface Pools {
  readonly male: ByEra<Weighted<string>>;
  readonly female: ByEra<Weighted<string>>;
  readonly surnames: Weighted<string>;
  readonly abroad: readonly string[];
  /** How often a member of the community was born outside England and Wales. */
  readonly abroadShare: number;
}

/** Each community's pools, in the order of COMMUNITIES. */
export const POOLS: readonly Pools[] = COMMUNITIES.map((c, i) => ({
  male: byEra(c.male, (list) => Weighted.ranked(unique(list), 8)),
  female: byEra(c.female, (list) => Weighted.ranked(unique(list), 8)),
  surnames: Weighted.ranked(unique(c.surnames), i === 0 ? 20 : 8),
  abroad: c.abroad,
  abroadShare: i === 0 ? 0.03 : i === 1 ? 0.02 : i === 2 ? 0.45 : 0.5,
}));
export const ENGLISH = 0;

/** Community tables: [England, Wales] × [born from 1950, born before]. */
const COMMUNITY_TABLES = [false, true].map((wales) =>
  [false, true].map(
    (early) =>
      new Weighted(COMMUNITIES.map((c, i) => [i, (wales ? c.wales : c.england) * (early ? c.early : 1)] as const)),
  ),
);

export interface Name {
  readonly forenames: string;
  readonly surname: string;
}

/** A party to a marriage or partnership, as their parents' entries are made from them. */
export interface Spouse {
  readonly male: boolean;
  readonly age: number;
  readonly bornIn: number;
  readonly community: number;
  readonly family: string;
}

const eraOf = (r: Random, year: number): keyof ByEra<unknown> => {
  const y = year + r.int(-10, 10);
  return y < 1950 ? 'classic' : y < 1990 ? 'mid' : 'modern';
};

export function pickCommunity(r: Random, wales: boolean, bornIn: number): number {
  return r.weighted(COMMUNITY_TABLES[wales ? 1 : 0][bornIn < 1950 ? 1 : 0]);
}

export function forename(r: Random, community: number, male: boolean, bornIn: number): string {
  // Some children of every community are given English names.
  const c = community !== ENGLISH && r.chance(bornIn >= 1980 ? 0.15 : 0.05) ? ENGLISH : community;
  const pools = POOLS[c];
  return r.weighted((male ? pools.male : pools.female)[eraOf(r, bornIn)]);
}

/** One to three forenames: mostly two, sometimes one, now and then three. */
export function forenames(r: Random, community: number, male: boolean, bornIn: number): string {
  const u = r.float();
  const first = forename(r, community, male, bornIn);
  if (u < 0.32) return first;
  let second = forename(r, community, male, bornIn);
  if (second === first) second = forename(r, community, male, bornIn);
  if (u < 0.93 || second === first) return `${first} ${second}`;
  const third = forename(r, community, male, bornIn);
  return third === first || third === second ? `${first} ${second}` : `${first} ${second} ${third}`;
}

/** A family surname; now and then two joined (Harding-Price). */
export function surname(r: Random, community: number): string {
  const name = r.weighted(POOLS[community].surnames);
  if (!r.chance(0.012) || name.includes('-')) return name;
  const other = r.weighted(POOLS[r.chance(0.7) ? community : ENGLISH].surnames);
  return other === name || other.includes('-') ? name : `${name}-${other}`;
}

/** The feminine form of a Polish surname (Kowalski, Kowalska). */
export function gendered(surname: string, male: boolean): string {
  if (male || !surname.endsWith('ki')) return surname;
  return `${surname.slice(0, -1)}a`;
}

export const firstWord = (forenames: string) => {
  const space = forenames.indexOf(' ');
  return space < 0 ? forenames : forenames.slice(0, space);
};

/** A signature as a register shows it: initial and surname (J. Smith). */
export const signed = (forenames: string, surname: string) => `${forenames[0]}. ${surname}`;

const INITIALS = 'AABBCCDDEEGGHHJJJKLMMNPPRRSSTTW';
/** A name as officials sign: an initial and a surname (M. Ollerenshaw). */
export const official = (r: Random) =>
  `${INITIALS[r.int(0, INITIALS.length - 1)]}. ${r.weighted(
    POOLS[r.chance(0.92) ? ENGLISH : r.int(0, POOLS.length - 1)].surnames,
  )}`;

export function doctor(r: Random): string {
  return `Dr ${INITIALS[r.int(0, INITIALS.length - 1)]}. ${r.weighted(
    POOLS[r.chance(0.75) ? ENGLISH : r.int(0, POOLS.length - 1)].surnames,
  )} ${r.pick(DOCTOR_QUALIFICATIONS)}`;
}

export const coronerName = (r: Random) => {
  const male = r.chance(0.5);
  return `${forename(r, ENGLISH, male, 1970)} ${r.weighted(POOLS[ENGLISH].surnames)}`;
};

/** Occupations the generator gives only to women, and only to men (a simplification of the registers). */
const WOMEN_ONLY = new Set(['Housewife', 'Seamstress', 'Domestic servant', 'Waitress', 'Typist', 'Telephonist']);
const MEN_ONLY = new Set([
  'Postman',
  'Milkman',
  'Fisherman',
  'Coal miner',
  'Blacksmith',
  'Boilermaker',
  'Dock labourer',
  'Soldier',
  'General labourer',
  'Farm labourer',
  'Steel worker',
  'Coal merchant',
  'Railway porter',
  'Bricklayer',
  'Scaffolder',
  'Plasterer',
  'Welder',
  'Fitter',
  'Joiner',
]);
const OCCUPATIONS_BY_SEX = {
  male: byEra(OCCUPATIONS, (list) => list.filter((o) => !WOMEN_ONLY.has(o))),
  female: byEra(OCCUPATIONS, (list) => list.filter((o) => !MEN_ONLY.has(o))),
};

/** An occupation of someone working around `workingYear`. */
export function occupation(r: Random, workingYear: number, male: boolean): string {
  return r.pick(OCCUPATIONS_BY_SEX[male ? 'male' : 'female'][eraOf(r, workingYear - 20)]);
}

export const prefix = (r: Random, male: boolean, p: number): string | null =>
  r.chance(p) ? r.pick(male ? MALE_PREFIXES : FEMALE_PREFIXES) : null;
export const suffix = (r: Random, p: number): string | null => (r.chance(p) ? r.pick(SUFFIXES) : null);
