/**
 * Synthetic v1 registrations for benchmarks and load tests: realistic enough
 * that searches behave as on real data (common surnames shared by many
 * records, dates spread over a century, a few accented, hyphenated and
 * apostrophe names, the odd blocked record and re-registration pair), and
 * cheap enough to stream millions of them.
 *
 * Deterministic: the stream is cut into blocks of two records, and each block
 * is drawn from its own random stream derived from (type, seed, block number).
 * The same type, count and seed therefore give the same records, any record
 * can be rebuilt from its position alone (`searchSample` does so), and a
 * longer run starts with the records of a shorter one.
 *
 * Records are built directly as object literals, every key of the field tree
 * present and null where nothing is recorded (groups of nulls, empty lists).
 */
import { type RecordDescription, readPath } from '../records/define.ts';
import { birth } from '../records/types/birth.ts';
import { death } from '../records/types/death.ts';
import { marriage } from '../records/types/marriage.ts';
import { partnership } from '../records/types/partnership.ts';
import {
  BUILDINGS,
  type ByEra,
  CARE_HOME_NAMES,
  CARE_HOMES,
  CAUSES_OF_DEATH,
  CHURCHES,
  COMMUNITIES,
  type Denomination,
  DISTRICTS,
  DOCTOR_QUALIFICATIONS,
  type District,
  FEMALE_PREFIXES,
  HOSPITALS,
  HOUSE_NAMES,
  MALE_PREFIXES,
  MISS_SURNAMES,
  OCCUPATIONS,
  STREETS,
  SUFFIXES,
  VENUES,
  WELSH_STREETS,
} from './names.ts';
import { Random, type Seed, Weighted, hashSeed } from './random.ts';
import { type ValueMakers, absentLeaves, blank, fillFromDescription } from './values.ts';

/** The types whose builders are tuned by hand (below); any other described type's records are made from its description. */
export const TUNED_TYPES = ['birth', 'death', 'marriage', 'partnership'] as const;
export type TunedType = (typeof TUNED_TYPES)[number];
const isTunedType = (type: string): type is TunedType => (TUNED_TYPES as readonly string[]).includes(type);

/** First id of a run unless the caller gives one. */
export const DEFAULT_FIRST_ID = 100_000_000;
/** Share of two-record blocks that are a registration and its re-registration (so ~0.5% of records are re-registrations). */
export const PAIR_SHARE = 0.01;
/** Share of blocked records. */
export const BLOCKED_SHARE = 0.001;

export interface GenerateOptions {
  readonly count: number;
  readonly seed: string;
  /** Id of the first record; the others follow one by one. Default 100000000. */
  readonly firstId?: number;
}

// The records are plain JSON; `any` keeps the re-registration code readable.
type Rec = Record<string, any>;

// ---------------------------------------------------------------------------
// Dates, as day numbers (days since 1970-01-01), with precomputed ISO strings
// ---------------------------------------------------------------------------

/** Day number of a calendar date (proleptic Gregorian; H. Hinnant's days_from_civil). */
export function dayNumber(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const TABLE_FIRST_YEAR = 1850;
const TABLE_LAST_YEAR = 2030;
const TABLE_START = dayNumber(TABLE_FIRST_YEAR, 1, 1);
const TABLE_SIZE = dayNumber(TABLE_LAST_YEAR + 1, 1, 1) - TABLE_START;
const ISO: string[] = new Array(TABLE_SIZE);
const YEAR = new Uint16Array(TABLE_SIZE);
const MONTH_DAY = new Uint16Array(TABLE_SIZE);
{
  const monthLength = (y: number, m: number) =>
    m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
  let i = 0;
  for (let y = TABLE_FIRST_YEAR; y <= TABLE_LAST_YEAR; y++) {
    for (let m = 1; m <= 12; m++) {
      const prefix = `${y}-${m < 10 ? '0' : ''}${m}-`;
      for (let d = 1, n = monthLength(y, m); d <= n; d++, i++) {
        ISO[i] = `${prefix}${d < 10 ? '0' : ''}${d}`;
        YEAR[i] = y;
        MONTH_DAY[i] = m * 100 + d;
      }
    }
  }
}

const iso = (day: number): string => ISO[day - TABLE_START];
const yearOf = (day: number): number => YEAR[day - TABLE_START];
const parseDay = (date: string): number => dayNumber(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
/** 0 is Sunday, 6 Saturday. */
const weekday = (day: number): number => (((day + 4) % 7) + 7) % 7;
/** Age in completed years on `day` of someone born on `born`. */
function ageOn(born: number, day: number): number {
  const years = yearOf(day) - yearOf(born);
  return MONTH_DAY[day - TABLE_START] < MONTH_DAY[born - TABLE_START] ? years - 1 : years;
}
/** A birthday of someone who is `years` old (in completed years) on `day`. */
function yearsBefore(r: Random, day: number, years: number): number {
  const monthDay = MONTH_DAY[day - TABLE_START];
  const month = Math.floor(monthDay / 100);
  const date = monthDay % 100;
  const anniversary = dayNumber(yearOf(day) - years, month, month === 2 && date === 29 ? 28 : date);
  return anniversary - r.int(0, 364);
}

/** The last day any generated record refers to. */
const LATEST = dayNumber(2025, 12, 31);
const EARLIEST_BIRTH = dayNumber(1900, 1, 1);
const BIRTH_RANGE = [EARLIEST_BIRTH, LATEST - 42] as const;
const DEATH_RANGE = [dayNumber(1975, 1, 1), LATEST - 14] as const;
const MARRIAGE_RANGE = [dayNumber(1930, 1, 1), LATEST] as const;
/** Civil partnerships could be formed in England and Wales from 21 December 2005. */
const PARTNERSHIP_RANGE = [dayNumber(2005, 12, 21), LATEST] as const;
const OPPOSITE_SEX_PARTNERSHIPS = dayNumber(2019, 12, 31);
const COVID = [dayNumber(2020, 3, 1), dayNumber(2022, 12, 31)] as const;

// ---------------------------------------------------------------------------
// Pools, weighted once at start
// ---------------------------------------------------------------------------

const unique = (items: readonly string[]) => [...new Set(items)];
const byEra = <T, U>(era: ByEra<T>, f: (list: T) => U): ByEra<U> => ({ classic: f(era.classic), mid: f(era.mid), modern: f(era.modern) });

interface Pools {
  readonly male: ByEra<Weighted<string>>;
  readonly female: ByEra<Weighted<string>>;
  readonly surnames: Weighted<string>;
  readonly abroad: readonly string[];
  /** How often a member of the community was born outside England and Wales. */
  readonly abroadShare: number;
}

const POOLS: readonly Pools[] = COMMUNITIES.map((c, i) => ({
  male: byEra(c.male, (list) => Weighted.ranked(unique(list), 8)),
  female: byEra(c.female, (list) => Weighted.ranked(unique(list), 8)),
  surnames: Weighted.ranked(unique(c.surnames), i === 0 ? 20 : 8),
  abroad: c.abroad,
  abroadShare: i === 0 ? 0.03 : i === 1 ? 0.02 : i === 2 ? 0.45 : 0.5,
}));
const ENGLISH = 0;

/** Community tables: [England, Wales] × [born from 1950, born before]. */
const COMMUNITY_TABLES = [false, true].map((wales) =>
  [false, true].map(
    (early) => new Weighted(COMMUNITIES.map((c, i) => [i, (wales ? c.wales : c.england) * (early ? c.early : 1)] as const)),
  ),
);

const DISTRICT_TABLE = new Weighted(DISTRICTS.map((d) => [d, d.weight] as const));
const STREET_TABLE = Weighted.ranked(STREETS, 15);

interface Place {
  readonly district: District;
  /** Town and registration sub-district. */
  readonly town: string;
  /** The town as written in an address. */
  readonly postTown: string;
  readonly hospital: string;
}

/** Every town of every district, with its hospital, built once. */
const PLACES: ReadonlyMap<District, readonly Place[]> = new Map(
  DISTRICTS.map((district) => [
    district,
    district.towns.map((town) => {
      const r = Random.fromString(`hospital:${town}`);
      const postTown = district.area === 'Greater London' ? `${town}, London` : town;
      const hospital = district.wales && r.chance(0.4) ? `Ysbyty ${town}` : `${town} ${r.pick(HOSPITALS)}`;
      return { district, town, postTown, hospital: `${hospital}, ${postTown}` };
    }),
  ]),
);

const pickPlace = (r: Random, district = r.weighted(DISTRICT_TABLE)): Place => r.pick(PLACES.get(district)!);

// ---------------------------------------------------------------------------
// People
// ---------------------------------------------------------------------------

interface Name {
  readonly forenames: string;
  readonly surname: string;
}

const eraOf = (r: Random, year: number): keyof ByEra<unknown> => {
  const y = year + r.int(-10, 10);
  return y < 1950 ? 'classic' : y < 1990 ? 'mid' : 'modern';
};

function pickCommunity(r: Random, wales: boolean, bornIn: number): number {
  return r.weighted(COMMUNITY_TABLES[wales ? 1 : 0][bornIn < 1950 ? 1 : 0]);
}

function forename(r: Random, community: number, male: boolean, bornIn: number): string {
  // Some children of every community are given English names.
  const c = community !== ENGLISH && r.chance(bornIn >= 1980 ? 0.15 : 0.05) ? ENGLISH : community;
  const pools = POOLS[c];
  return r.weighted((male ? pools.male : pools.female)[eraOf(r, bornIn)]);
}

/** One to three forenames: mostly two, sometimes one, now and then three. */
function forenames(r: Random, community: number, male: boolean, bornIn: number): string {
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
function surname(r: Random, community: number): string {
  const name = r.weighted(POOLS[community].surnames);
  if (!r.chance(0.012) || name.includes('-')) return name;
  const other = r.weighted(POOLS[r.chance(0.7) ? community : ENGLISH].surnames);
  return other === name || other.includes('-') ? name : `${name}-${other}`;
}

/** The feminine form of a Polish surname (Kowalski, Kowalska). */
function gendered(surname: string, male: boolean): string {
  if (male || !surname.endsWith('ki')) return surname;
  return `${surname.slice(0, -1)}a`;
}

const firstWord = (forenames: string) => {
  const space = forenames.indexOf(' ');
  return space < 0 ? forenames : forenames.slice(0, space);
};

/** A signature as a register shows it: initial and surname (J. Smith). */
const signed = (forenames: string, surname: string) => `${forenames[0]}. ${surname}`;

const INITIALS = 'AABBCCDDEEGGHHJJJKLMMNPPRRSSTTW';
/** A name as officials sign: an initial and a surname (M. Ollerenshaw). */
const official = (r: Random) => `${INITIALS[r.int(0, INITIALS.length - 1)]}. ${r.weighted(POOLS[r.chance(0.92) ? ENGLISH : r.int(0, POOLS.length - 1)].surnames)}`;

/** Occupations the generator gives only to women, and only to men (a simplification of the registers). */
const WOMEN_ONLY = new Set(['Housewife', 'Seamstress', 'Domestic servant', 'Waitress', 'Typist', 'Telephonist']);
const MEN_ONLY = new Set([
  'Postman', 'Milkman', 'Fisherman', 'Coal miner', 'Blacksmith', 'Boilermaker', 'Dock labourer', 'Soldier', 'General labourer',
  'Farm labourer', 'Steel worker', 'Coal merchant', 'Railway porter', 'Bricklayer', 'Scaffolder', 'Plasterer', 'Welder', 'Fitter', 'Joiner',
]);
const OCCUPATIONS_BY_SEX = {
  male: byEra(OCCUPATIONS, (list) => list.filter((o) => !WOMEN_ONLY.has(o))),
  female: byEra(OCCUPATIONS, (list) => list.filter((o) => !MEN_ONLY.has(o))),
};

/** An occupation of someone working around `workingYear`. */
function occupation(r: Random, workingYear: number, male: boolean): string {
  return r.pick(OCCUPATIONS_BY_SEX[male ? 'male' : 'female'][eraOf(r, workingYear - 20)]);
}

function address(r: Random, place: Place): string {
  const street = place.district.wales && r.chance(0.3) ? r.pick(WELSH_STREETS) : r.weighted(STREET_TABLE);
  const u = r.float();
  if (u < 0.09) return `Flat ${r.int(1, 48)}, ${r.pick(CARE_HOME_NAMES)} ${r.pick(BUILDINGS)}, ${street}, ${place.postTown}`;
  if (u < 0.12) return `${r.pick(HOUSE_NAMES)}, ${street}, ${place.postTown}`;
  const v = r.float();
  return `${1 + Math.floor(v * v * 160)} ${street}, ${place.postTown}`;
}

/** Somewhere in the same district, or elsewhere in England and Wales. */
const nearby = (r: Random, place: Place): Place => (r.chance(0.75) ? pickPlace(r, place.district) : pickPlace(r));

function birthplace(r: Random, community: number, place: Place, bornIn: number): string {
  const pools = POOLS[community];
  if (r.chance(bornIn < 1990 || community <= 2 ? pools.abroadShare : pools.abroadShare * 0.6)) return r.pick(pools.abroad);
  return nearby(r, place).town;
}

function doctor(r: Random): string {
  return `Dr ${INITIALS[r.int(0, INITIALS.length - 1)]}. ${r.weighted(POOLS[r.chance(0.75) ? ENGLISH : r.int(0, POOLS.length - 1)].surnames)} ${r.pick(DOCTOR_QUALIFICATIONS)}`;
}

const coronerName = (r: Random) => {
  const male = r.chance(0.5);
  return `${forename(r, ENGLISH, male, 1970)} ${r.weighted(POOLS[ENGLISH].surnames)}`;
};
const CORONER_DESIGNATIONS = ['Senior Coroner', 'Area Coroner', 'Assistant Coroner'];

const prefix = (r: Random, male: boolean, p: number): string | null => (r.chance(p) ? r.pick(male ? MALE_PREFIXES : FEMALE_PREFIXES) : null);
const suffix = (r: Random, p: number): string | null => (r.chance(p) ? r.pick(SUFFIXES) : null);
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
const none = (r: Random, p: number, notes: readonly string[]): string => (r.chance(p) ? r.pick(notes) : 'None');

/** Groups with nothing recorded. Shared and frozen: records are only ever serialised. */
const nullGroup = <K extends string>(...keys: K[]): Readonly<Record<K, null>> =>
  Object.freeze(Object.fromEntries(keys.map((k) => [k, null])) as Record<K, null>);

// ---------------------------------------------------------------------------
// Births
// ---------------------------------------------------------------------------

const NO_BIRTH_INFORMANT = nullGroup('forenames', 'surname', 'address', 'qualification', 'signature', 'signatureIsMark');
const NO_FATHER = Object.freeze({ ...nullGroup('prefix', 'forenames', 'surname', 'suffix', 'birthplace', 'occupation'), aliases: Object.freeze([]), deceased: null });

const BIRTH_NOTES = ['Adoption order made', 'Parental order made', 'Entry made on the authority of the Registrar General'];
const BIRTH_CORRECTIONS = [
  "Clerical: spelling of the child's forename corrected",
  "Clerical: spelling of the mother's birthplace corrected",
  "Clerical: father's occupation corrected",
  "Correction of the child's sex",
  "Clerical: mother's maiden surname corrected",
];
const NAME_UPDATES = ['Forenames changed within twelve months of registration', 'Name given in baptism substituted', 'Forename added within twelve months of registration'];
const PR_ORDERS = ['Parental responsibility agreement lodged', 'Parental responsibility order made', 'Residence order made'];

function registrationDelay(r: Random): number {
  // Most births are registered within a few weeks; the law allows 42 days.
  return r.chance(0.9) ? r.bell(2, 30) : r.int(0, 42);
}

const birthAlias = (forenames: string | null, surname: string | null) => ({ prefix: null, forenames, surname, suffix: null });

function buildBirth(r: Random, id: number): Rec {
  const place = pickPlace(r);
  const born = r.int(BIRTH_RANGE[0], BIRTH_RANGE[1]);
  const year = yearOf(born);
  const registered = born + registrationDelay(r);
  const wales = place.district.wales;

  const motherAge = r.bell(17, 44);
  const motherBorn = year - motherAge;
  const community = pickCommunity(r, wales, motherBorn);
  const motherCommunity = r.chance(0.88) ? community : pickCommunity(r, wales, motherBorn);
  const male = r.chance(0.513);
  const sex = r.chance(0.0002) ? 'Indeterminate' : male ? 'Male' : 'Female';

  const fatherNamed = r.chance(year < 1970 ? 0.95 : year < 2000 ? 0.86 : 0.92);
  const married = fatherNamed && r.chance(year < 1970 ? 0.93 : year < 1990 ? 0.75 : 0.5);
  const family = surname(r, community);
  const maiden = surname(r, motherCommunity);
  let childFamily = maiden;
  if (fatherNamed) {
    const u = r.float();
    if (married || u < 0.55) childFamily = family;
    else if (u < 0.62 && !family.includes('-') && !maiden.includes('-') && family !== maiden) childFamily = `${maiden}-${family}`;
  }
  const motherSurname = gendered(married ? family : maiden, false);

  const childForenames = forenames(r, community, male, year);
  const motherForenames = forenames(r, motherCommunity, false, motherBorn);
  const home = address(r, place);
  const inHospital = r.chance(year < 1950 ? 0.35 : year < 1970 ? 0.75 : 0.98);

  const mother = {
    prefix: prefix(r, false, 0.03),
    forenames: motherForenames,
    surname: motherSurname,
    suffix: suffix(r, 0.003),
    birthplace: birthplace(r, motherCommunity, place, motherBorn),
    occupation: r.chance(year < 1970 ? 0.45 : 0.82) ? occupation(r, year, false) : null,
    aliases: r.chance(0.02)
      ? married && maiden !== family
        ? [birthAlias(motherForenames, gendered(maiden, false))]
        : [birthAlias(firstWord(motherForenames), motherSurname)]
      : [],
    address: inHospital ? home : null,
    maidenSurname: gendered(maiden, false),
    marriageSurname: married && r.chance(0.02) ? gendered(surname(r, motherCommunity), false) : null,
  };

  let father: Rec = NO_FATHER;
  if (fatherNamed) {
    const fatherBorn = motherBorn - r.int(-3, 9);
    const fatherForenames = forenames(r, community, true, fatherBorn);
    father = {
      prefix: prefix(r, true, 0.03),
      forenames: fatherForenames,
      surname: family,
      suffix: suffix(r, 0.003),
      birthplace: birthplace(r, community, place, fatherBorn),
      occupation: r.chance(0.96) ? occupation(r, year, true) : null,
      aliases: r.chance(0.01) ? [birthAlias(firstWord(fatherForenames), family)] : [],
      deceased: r.chance(0.003),
    };
  }

  const informant = (who: Name, qualification: string) => ({
    forenames: who.forenames,
    surname: who.surname,
    address: home,
    qualification,
    signature: signed(who.forenames, who.surname),
    signatureIsMark: year < 1930 && r.chance(0.02),
  });
  const motherInforms = !fatherNamed || r.chance(0.9);
  const informant1 = motherInforms ? informant(mother, 'Mother') : informant(father as Name, 'Father');
  const informant2 = fatherNamed && motherInforms && r.chance(0.65) ? informant(father as Name, 'Father') : NO_BIRTH_INFORMANT;

  const nameUpdated = r.chance(0.003);
  const finalForenames = nameUpdated ? forenames(r, community, male, year) : childForenames;
  const declared = r.chance(0.005);
  const parentage = fatherNamed && !married && r.chance(0.005);
  const superintendent = r.chance(0.3);

  return {
    id,
    date: iso(registered),
    entryNumber: r.int(1, 500),
    registrar: {
      signature: official(r),
      designation: r.chance(0.85) ? 'Registrar' : 'Deputy Registrar',
      superintendentSignature: superintendent ? official(r) : null,
      superintendentDesignation: superintendent ? 'Superintendent Registrar' : null,
      subdistrict: place.town,
      district: place.district.name,
      administrativeArea: place.district.area,
    },
    informant1,
    informant2,
    child: {
      originalPrefix: null,
      prefix: null,
      forenames: finalForenames,
      originalForenames: nameUpdated ? childForenames : null,
      surname: gendered(childFamily, male),
      originalSuffix: null,
      suffix: null,
      dateOfBirth: iso(born),
      sex,
      birthplace: inHospital ? place.hospital : home,
    },
    mother,
    father,
    dateOfDeclaration: declared ? iso(Math.max(born, registered - r.int(1, 14))) : null,
    dateOfStatutoryDeclarationOfParentage: parentage ? iso(Math.max(born, registered - r.int(0, 20))) : null,
    statutoryDeclarationOfParentage: parentage
      ? r.pick(['Declaration of parentage made jointly by both parents', 'Statutory declaration of paternity made by the father'])
      : null,
    dateOfNameUpdate: nameUpdated ? iso(Math.min(LATEST, registered + r.int(14, 360))) : null,
    status: {
      blocked: r.chance(BLOCKED_SHARE),
      marginalNote: none(r, 0.004, BIRTH_NOTES),
      cancelled: r.chance(0.0003),
      correction: none(r, 0.01, BIRTH_CORRECTIONS),
      nameUpdate: nameUpdated ? r.pick(NAME_UPDATES) : 'None',
      onAuthorityOfRegistrarGeneral: r.chance(0.002),
      potentiallyFictitious: r.chance(0.0002),
      praOrCourtOrder: year >= 1989 ? none(r, 0.01, PR_ORDERS) : 'None',
      reregistration: 'None',
    },
    previousRegistration: null,
    nextRegistration: null,
  };
}

function reregisterBirth(r: Random, first: Rec, id: number): [Rec, Rec] {
  const registered = Math.min(LATEST, parseDay(first.date) + r.int(60, 1500));
  const child = first.child;
  let father: Rec = first.father;
  let reason: string;
  if (father.forenames === null) {
    reason = "Father's details added";
    const place = pickPlace(r);
    const bornIn = yearOf(parseDay(child.dateOfBirth)) - r.int(20, 40);
    const community = pickCommunity(r, place.district.wales, bornIn);
    father = {
      ...NO_FATHER,
      forenames: forenames(r, community, true, bornIn),
      surname: surname(r, community),
      birthplace: birthplace(r, community, place, bornIn),
      occupation: occupation(r, bornIn + 30, true),
      aliases: [],
      deceased: false,
    };
  } else if (first.mother.surname !== gendered(father.surname, false)) {
    reason = 'Parents married after the birth';
  } else if (first.informant2.forenames === null) {
    reason = 'Re-registered to add the father jointly';
  } else {
    reason = 'Re-registered on the authority of the Registrar General';
  }
  const takesFatherName = reason !== "Father's details added" || r.chance(0.6);
  const male = child.sex === 'Male';
  const mother: Rec = reason === 'Parents married after the birth' ? { ...first.mother, surname: gendered(father.surname, false) } : first.mother;
  // Re-registered jointly: the mother and the father both inform.
  const informant = (who: Rec, qualification: string) => ({
    ...first.informant1,
    forenames: who.forenames,
    surname: who.surname,
    qualification,
    signature: signed(who.forenames, who.surname),
  });
  const second: Rec = {
    ...first,
    id,
    date: iso(registered),
    entryNumber: r.int(1, 500),
    informant1: informant(mother, 'Mother'),
    informant2: informant(father, 'Father'),
    child: takesFatherName ? { ...child, surname: gendered(father.surname, male) } : child,
    mother,
    father,
    status: { ...first.status, blocked: r.chance(BLOCKED_SHARE), marginalNote: 'None', reregistration: reason },
  };
  return [{ ...first, status: { ...first.status, marginalNote: 'Birth re-registered' } }, second];
}

// ---------------------------------------------------------------------------
// Deaths
// ---------------------------------------------------------------------------

const NO_PARTNER = nullGroup('name', 'occupation', 'retired');
const NO_RELATIVE = nullGroup('name', 'occupation');
const NO_CORONER = nullGroup('name', 'designation', 'area');
const NO_DEATH_INFORMANT = nullGroup('forenames', 'surname', 'address', 'qualification', 'signature');

const DEATH_CORRECTIONS = [
  'Clerical: place of birth corrected',
  "Clerical: spelling of the deceased's forename corrected",
  "Clerical: deceased's occupation corrected",
  'Correction of the date of birth',
  "Clerical: informant's address corrected",
];
const DEATH_NOTES = ['Entry corrected on the authority of the coroner', 'Cause of death amended after post-mortem', 'Entry made on the authority of the Registrar General'];
const CHILD_INFORMANTS = ['Son', 'Daughter', 'Son', 'Daughter', 'Daughter'];
const OTHER_INFORMANTS = ['Nephew', 'Niece', 'Grandson', 'Granddaughter', 'Brother', 'Sister', 'Friend', 'Present at the death', 'Causing the disposal', 'Administrator'];
const INQUEST_CAUSES = ['Fall; accident', 'Drowning; accident', 'Road traffic collision; accident', 'Mixed drug toxicity; misadventure', 'Hanging; suicide', 'Industrial disease', 'Open conclusion'];
const MALE_RELATIVES = new Set(['Nephew', 'Grandson', 'Brother']);
const FEMALE_RELATIVES = new Set(['Niece', 'Granddaughter', 'Sister']);
const QUALIFIERS = ['Found dead on', 'On or about'];

function causeOfDeath(r: Random, age: number, days: number, died: number): string {
  if (age < 1) return r.pick(days < 28 ? CAUSES_OF_DEATH.neonatal : CAUSES_OF_DEATH.infant);
  if (age >= 50 && died >= COVID[0] && died <= COVID[1] && r.chance(0.1)) return 'COVID-19';
  if (age < 40) return r.pick(CAUSES_OF_DEATH.young);
  if (age < 70) return r.pick(CAUSES_OF_DEATH.adult);
  return r.pick(CAUSES_OF_DEATH.elderly);
}

function buildDeath(r: Random, id: number): Rec {
  const place = pickPlace(r);
  const died = r.int(DEATH_RANGE[0], DEATH_RANGE[1]);
  const diedIn = yearOf(died);

  // Age: a few infants and young people, most deaths in old age.
  const u = r.float();
  let born: number;
  let ageText: string;
  if (u < 0.006) {
    const days = r.chance(0.35) ? 0 : r.int(1, 364);
    born = died - days;
    ageText = days === 0 ? (r.chance(0.2) ? plural(r.int(5, 55), 'minute') : plural(r.int(1, 23), 'hour')) : days < 28 ? plural(days, 'day') : plural(Math.max(1, Math.floor(days / 30.44)), 'month');
  } else {
    let years = u < 0.04 ? r.int(1, 39) : u < 0.2 ? r.int(40, 64) : r.bell(60, 106);
    const oldest = diedIn - 1901;
    if (years > oldest) years = r.int(60, oldest);
    born = Math.max(EARLIEST_BIRTH, yearsBefore(r, died, years));
    ageText = plural(ageOn(born, died), 'year');
  }
  const age = ageOn(born, died);
  const bornIn = yearOf(born);
  const dobKnown = age < 16 || !r.chance(0.01);
  if (!dobKnown) ageText = `About ${Math.max(20, Math.round(age / 5) * 5)} years`;

  const male = r.chance(0.49);
  const community = pickCommunity(r, place.district.wales, bornIn);
  const names = forenames(r, community, male, bornIn);
  const base = surname(r, community);
  const family = gendered(base, male);
  const SURNAME = family.toUpperCase();
  const home = r.chance(0.002) ? 'No fixed abode' : address(r, place);

  // Marital condition, and the partner named in the register.
  const m = r.float();
  const condition =
    age < 18 ? 'child'
    : age >= 75 ? (m < 0.5 ? 'widowed' : m < 0.85 ? 'married' : m < 0.92 ? 'divorced' : 'single')
    : age >= 50 ? (m < 0.6 ? 'married' : m < 0.72 ? 'widowed' : m < 0.88 ? 'divorced' : 'single')
    : m < 0.45 ? 'married' : m < 0.55 ? 'divorced' : 'single';
  const everMarried = condition === 'married' || condition === 'widowed' || condition === 'divorced';
  let partner: Rec = NO_PARTNER;
  let relationship: string | null = null;
  let partnerForenames = '';
  let partnerFamily = '';
  if (condition === 'married' || condition === 'widowed') {
    const civil = diedIn >= 2006 && r.chance(0.01);
    const partnerMale = civil ? male : !male;
    partnerForenames = forenames(r, community, partnerMale, bornIn);
    partnerFamily = civil ? gendered(surname(r, community), partnerMale) : gendered(base, partnerMale);
    partner = { name: `${partnerForenames} ${partnerFamily.toUpperCase()}`, occupation: occupation(r, bornIn + 40, partnerMale), retired: age >= 65 && r.chance(0.8) };
    relationship = civil ? 'Civil partner of' : condition === 'married' ? (male ? 'Husband of' : 'Wife of') : male ? 'Widower of' : 'Widow of';
  }
  const maiden = !male && everMarried && r.chance(0.9) ? gendered(surname(r, r.chance(0.85) ? community : pickCommunity(r, false, bornIn)), false).toUpperCase() : null;

  // How the death was certified and registered.
  const c = r.float();
  const inquest = age >= 1 && c < 0.02;
  const postMortem = !inquest && c < 0.12;
  const coronerArea = place.district.area;
  const coroner = inquest || postMortem ? { name: coronerName(r), designation: r.pick(CORONER_DESIGNATIONS), area: coronerArea } : NO_CORONER;
  const inquestDay = inquest ? Math.min(LATEST, died + r.int(20, 240)) : 0;
  const registered = Math.min(LATEST, inquest ? inquestDay + r.int(1, 10) : postMortem ? died + r.int(5, 35) : died + r.bell(1, 14));
  const certifiedBy = inquest
    ? `Certificate received from ${coroner.name}, ${coroner.designation} for ${coronerArea}. Inquest held ${iso(inquestDay)}`
    : postMortem
      ? `Certificate received from ${coroner.name}, ${coroner.designation} for ${coronerArea}, after post-mortem without inquest`
      : doctor(r);
  const cause = inquest ? r.pick(INQUEST_CAUSES) : causeOfDeath(r, age, died - born, died);

  // Where: hospital, home, care home.
  const w = r.float();
  const deathplace =
    w < 0.46 ? place.hospital
    : w < 0.7 && home !== 'No fixed abode' ? home
    : w < 0.92 ? `${r.pick(CARE_HOME_NAMES)} ${r.pick(CARE_HOMES)}, ${nearby(r, place).postTown}`
    : address(r, place);

  // The informant: a parent for a child, else the partner, a son or daughter, someone else.
  let informant: Rec = NO_DEATH_INFORMANT;
  let mother: Rec = NO_RELATIVE;
  let father: Rec = NO_RELATIVE;
  if (age < 16) {
    const motherForenames = forenames(r, community, false, bornIn - 28);
    const fatherForenames = forenames(r, community, true, bornIn - 30);
    const motherFamily = gendered(base, false);
    const fatherFamily = gendered(base, true);
    mother = { name: `${motherForenames} ${motherFamily.toUpperCase()}`, occupation: r.chance(0.8) ? occupation(r, diedIn, false) : null };
    father = r.chance(0.9) ? { name: `${fatherForenames} ${fatherFamily.toUpperCase()}`, occupation: occupation(r, diedIn, true) } : NO_RELATIVE;
    const byMother = r.chance(0.75) || father === NO_RELATIVE;
    const [names, parentFamily] = byMother ? [motherForenames, motherFamily] : [fatherForenames, fatherFamily];
    informant = {
      forenames: names,
      surname: parentFamily.toUpperCase(),
      address: home,
      qualification: byMother ? 'Mother' : 'Father',
      signature: signed(names, parentFamily),
    };
  } else if (!inquest || r.chance(0.2)) {
    const i = r.float();
    let who: { forenames: string; surname: string; qualification: string; address: string };
    if (condition === 'married' && i < 0.45) {
      who = { forenames: partnerForenames, surname: partnerFamily, qualification: relationship === 'Civil partner of' ? 'Surviving civil partner' : male ? 'Widow' : 'Widower', address: home };
    } else if (i < 0.85 && age >= 35) {
      const qualification = r.pick(CHILD_INFORMANTS);
      const son = qualification === 'Son';
      const childSurname = son || r.chance(0.35) ? gendered(base, son) : gendered(surname(r, community), son);
      who = {
        forenames: forenames(r, community, son, bornIn + 28),
        surname: childSurname,
        qualification: r.chance(0.25) ? `${qualification}, present at the death` : qualification,
        address: address(r, nearby(r, place)),
      };
    } else {
      const qualification = r.pick(OTHER_INFORMANTS);
      const relative = qualification !== 'Friend' && qualification !== 'Causing the disposal' && qualification !== 'Administrator' && qualification !== 'Present at the death';
      const informantMale = MALE_RELATIVES.has(qualification) || (!FEMALE_RELATIVES.has(qualification) && r.chance(0.45));
      who = {
        forenames: forenames(r, relative ? community : pickCommunity(r, place.district.wales, 1970), informantMale, bornIn + 20),
        surname: gendered(relative && r.chance(0.5) ? base : surname(r, relative ? community : ENGLISH), informantMale),
        qualification,
        address: address(r, nearby(r, place)),
      };
    }
    informant = { forenames: who.forenames, surname: who.surname.toUpperCase(), address: who.address, qualification: who.qualification, signature: signed(who.forenames, who.surname) };
  }

  const aliases: Rec[] = [];
  if (r.chance(0.015)) {
    if (maiden) aliases.push({ type: 'formerly known as', prefix: null, forenames: names, surname: maiden, suffix: null });
    else {
      const space = names.indexOf(' ');
      aliases.push({ type: 'otherwise', prefix: null, forenames: space < 0 ? forename(r, community, male, bornIn) : names.slice(space + 1), surname: SURNAME, suffix: null });
    }
  }

  const q = r.float();
  return {
    id,
    date: iso(registered),
    entryNumber: r.int(1, 800),
    deceased: {
      prefix: prefix(r, male, 0.02),
      forenames: names,
      surname: SURNAME,
      suffix: suffix(r, 0.004),
      maidenSurname: maiden,
      dateOfBirth: dobKnown ? iso(born) : null,
      dateOfDeath: iso(died),
      dateOfDeathQualifier: q < 0.008 ? QUALIFIERS[0] : q < 0.013 ? QUALIFIERS[1] : null,
      birthplace: dobKnown ? birthplace(r, community, place, bornIn) : r.chance(0.6) ? 'Not known' : birthplace(r, community, place, bornIn),
      deathplace,
      ageAtDeath: ageText,
      sex: male ? 'Male' : 'Female',
      address: home,
      occupation: age < 16 ? null : !male && bornIn < 1940 && r.chance(0.3) ? 'Housewife' : occupation(r, Math.min(diedIn, bornIn + 40), male),
      retired: age >= 16 ? age >= 65 && r.chance(0.85) : null,
      causeOfDeath: cause,
      certifiedBy,
      relationshipToPartner: relationship,
      aliases,
    },
    registrar: {
      signature: official(r),
      designation: r.chance(0.85) ? 'Registrar' : 'Deputy Registrar',
      subdistrict: place.town,
      district: place.district.name,
      administrativeArea: place.district.area,
    },
    informant,
    partner,
    mother,
    father,
    coroner,
    inquestDate: inquest ? iso(inquestDay) : null,
    status: {
      blocked: r.chance(BLOCKED_SHARE),
      correction: none(r, 0.01, DEATH_CORRECTIONS),
      marginalNote: none(r, 0.004, DEATH_NOTES),
      onAuthorityOfRegistrarGeneral: r.chance(0.002),
    },
    previousRegistration: null,
    nextRegistration: null,
  };
}

function reregisterDeath(r: Random, first: Rec, id: number): [Rec, Rec] {
  const died = parseDay(first.deceased.dateOfDeath);
  const inquestDay = Math.min(LATEST, Math.max(died, parseDay(first.date)) + r.int(20, 200));
  const registered = Math.min(LATEST, inquestDay + r.int(1, 10));
  const area = first.registrar.administrativeArea;
  const coroner = first.coroner.name === null ? { name: coronerName(r), designation: r.pick(CORONER_DESIGNATIONS), area } : first.coroner;
  const second: Rec = {
    ...first,
    id,
    date: iso(registered),
    entryNumber: r.int(1, 800),
    deceased: {
      ...first.deceased,
      causeOfDeath: r.pick(INQUEST_CAUSES),
      certifiedBy: `Certificate received from ${coroner.name}, ${coroner.designation} for ${coroner.area}. Inquest held ${iso(inquestDay)}`,
    },
    coroner,
    inquestDate: iso(inquestDay),
    status: { ...first.status, blocked: r.chance(BLOCKED_SHARE), marginalNote: 'None', onAuthorityOfRegistrarGeneral: r.chance(0.5) },
  };
  return [
    {
      ...first,
      deceased: { ...first.deceased, causeOfDeath: 'Pending further inquiry' },
      status: { ...first.status, marginalNote: 'Death re-registered after inquest' },
    },
    second,
  ];
}

// ---------------------------------------------------------------------------
// Marriages
// ---------------------------------------------------------------------------

const NO_WITNESS = nullGroup('signature', 'signatureIsMark');
const NO_MINISTER = nullGroup('signature', 'designation');
const NO_PARENT_OF_SPOUSE = nullGroup('forenames', 'surname', 'occupation', 'retired', 'designation', 'deceased');
const ANGLICAN = ['Vicar', 'Rector', 'Curate', 'Priest in charge'];

/** Who solemnised a religious marriage, as they sign and are designated. */
function officiant(r: Random, denomination: Denomination): Rec {
  switch (denomination) {
    case 'anglican':
      return { signature: `Revd ${official(r)}`, designation: r.pick(ANGLICAN) };
    case 'catholic':
    case 'orthodox':
      return { signature: `Fr ${official(r)}`, designation: 'Priest' };
    case 'free church':
      return { signature: `Revd ${official(r)}`, designation: 'Minister' };
    case 'welsh chapel':
      return { signature: `Parch. ${official(r)}`, designation: 'Minister' };
    default:
      return { signature: official(r), designation: 'Authorised person' };
  }
}
const MARRIAGE_NOTES = ['Entry corrected on the authority of the Registrar General', "Clerical: bride's father's occupation corrected", 'Marriage void: decree of nullity'];

interface Spouse {
  readonly male: boolean;
  readonly age: number;
  readonly bornIn: number;
  readonly community: number;
  readonly family: string;
}

/** The father of a bride, groom or partner, as the register describes him. */
function fatherOf(r: Random, who: Spouse, atYear: number): Rec {
  if (r.chance(0.025)) return NO_PARENT_OF_SPOUSE;
  const d = r.float();
  return {
    forenames: forenames(r, who.community, true, who.bornIn - 30),
    surname: (r.chance(0.92) ? gendered(who.family, true) : surname(r, who.community)).toUpperCase(),
    occupation: occupation(r, Math.min(atYear, who.bornIn + 25), true),
    retired: who.age >= 35 && r.chance(Math.min(0.9, (who.age - 30) / 25)),
    designation: d < 0.85 ? null : d < 0.97 ? 'Father' : d < 0.985 ? 'Adoptive father' : 'Stepfather',
    deceased: r.chance(Math.max(0.02, Math.min(0.95, (who.age - 20) / 55))),
  };
}

function spouse(r: Random, year: number, male: boolean, age: number, community: number, family: string, condition: string, home: string): Rec {
  const bornIn = year - age;
  const names = forenames(r, community, male, bornIn);
  const SURNAME = family.toUpperCase();
  return {
    prefix: prefix(r, male, 0.02),
    forenames: names,
    surname: SURNAME,
    suffix: suffix(r, 0.003),
    age,
    occupation: male || r.chance(year < 1970 ? 0.5 : 0.9) ? occupation(r, year, male) : null,
    retired: age >= 65 && r.chance(0.8),
    address: home,
    aliases: r.chance(0.012) ? [{ prefix: null, forenames: firstWord(names), surname: SURNAME, suffix: null }] : [],
    condition,
    signature: signed(names, family),
    signatureIsMark: year < 1950 && r.chance(0.01),
  };
}

function condition(r: Random, year: number, male: boolean, again: boolean): string {
  if (!again) return year < 1980 ? (male ? 'Bachelor' : 'Spinster') : 'Single';
  if (r.chance(0.35)) return year < 1980 ? (male ? 'Widower' : 'Widow') : 'Widowed';
  return year >= 1980 && r.chance(0.3) ? 'Previous marriage dissolved' : 'Divorced';
}

function buildMarriage(r: Random, id: number): Rec {
  const place = pickPlace(r);
  let day = r.int(MARRIAGE_RANGE[0], MARRIAGE_RANGE[1]);
  if (r.chance(0.55)) {
    day += (6 - weekday(day) + 7) % 7; // most weddings are on a Saturday
    if (day > LATEST) day -= 7;
  }
  const year = yearOf(day);
  const wales = place.district.wales;

  const groomAgain = r.chance(year < 1970 ? 0.08 : 0.25);
  const brideAgain = groomAgain ? r.chance(0.6) : r.chance(0.05);
  const groomAge = groomAgain ? r.bell(26, 78) : year < 1975 ? r.bell(19, 34) : r.bell(21, 44);
  const brideAge = Math.max(18, groomAge - r.int(-3, 7));
  const groomCommunity = pickCommunity(r, wales, year - groomAge);
  const brideCommunity = r.chance(0.85) ? groomCommunity : pickCommunity(r, wales, year - brideAge);
  const groomFamily = surname(r, groomCommunity);
  const brideFamily = surname(r, brideCommunity);
  // A bride marrying again is registered under her former married name.
  const brideSurname = gendered(brideAgain && r.chance(0.7) ? surname(r, r.chance(0.8) ? brideCommunity : ENGLISH) : brideFamily, false);

  const groomHome = address(r, place);
  const brideHome = r.chance(year >= 1980 ? 0.6 : 0.1) ? groomHome : address(r, nearby(r, place));
  const groom = spouse(r, year, true, groomAge, groomCommunity, groomFamily, condition(r, year, true, groomAgain), groomHome);
  const bride = spouse(r, year, false, brideAge, brideCommunity, brideSurname, condition(r, year, false, brideAgain), brideHome);
  const fatherOfGroom = fatherOf(r, { male: true, age: groomAge, bornIn: year - groomAge, community: groomCommunity, family: groomFamily }, year);
  const fatherOfBride = fatherOf(r, { male: false, age: brideAge, bornIn: year - brideAge, community: brideCommunity, family: brideFamily }, year);

  // Where, and who solemnised it.
  const civil = r.chance(year < 1960 ? 0.3 : year < 1990 ? 0.5 : year < 2010 ? 0.65 : 0.78);
  const street = r.weighted(STREET_TABLE);
  let placeOfMarriage: Rec;
  let minister1: Rec;
  const registrarSignature = official(r);
  if (civil) {
    if (year >= 1995 && r.chance(0.55)) {
      const venue = r.pick(VENUES);
      placeOfMarriage = { address: `${venue}, ${street}, ${place.postTown}`, parish: null, short: `${venue}, ${place.town}` };
    } else {
      placeOfMarriage = { address: `Register Office, ${street}, ${place.postTown}`, parish: null, short: `${place.district.name} Register Office` };
    }
    minister1 = { signature: registrarSignature, designation: 'Registrar' };
  } else {
    const [church, dedication, denomination] = wales && r.chance(0.3) ? CHURCHES[r.int(15, 16)] : CHURCHES[Math.min(r.int(0, 12), r.int(0, CHURCHES.length - 1))];
    placeOfMarriage = {
      address: `${church}, ${street}, ${place.postTown}`,
      parish: dedication ? `${dedication}, ${place.town}` : null,
      short: `${church}, ${place.town}`,
    };
    minister1 = officiant(r, denomination);
  }
  const minister2 = !civil && r.chance(0.03) ? { signature: `Revd ${official(r)}`, designation: r.pick(['Assistant curate', 'Deacon', 'Minister']) } : NO_MINISTER;

  const witnessCount = 2 + (r.chance(0.08) ? r.int(1, 4) : 0) + (r.chance(0.002) ? 6 : 0);
  const witness = (n: number): Rec => {
    if (n > witnessCount) return NO_WITNESS;
    const w = r.float();
    const community = w < 0.5 ? groomCommunity : brideCommunity;
    const family = w < 0.3 ? groomFamily : w < 0.5 ? brideFamily : surname(r, community);
    const male = r.chance(0.5);
    return { signature: signed(forename(r, community, male, year - 30), gendered(family, male)), signatureIsMark: year < 1950 && r.chance(0.01) };
  };
  const superintendent = civil || r.chance(0.1);

  return {
    id,
    entryNumber: r.int(1, 250),
    dateOfMarriage: iso(day),
    placeOfMarriage,
    registrar: {
      signature: registrarSignature,
      designation: r.chance(0.85) ? 'Registrar' : 'Deputy Registrar',
      superintendentSignature: superintendent ? official(r) : null,
      superintendentDesignation: superintendent ? 'Superintendent Registrar' : null,
      district: place.district.name,
      administrativeArea: place.district.area,
    },
    groom,
    bride,
    fatherOfGroom,
    fatherOfBride,
    witness1: witness(1),
    witness2: witness(2),
    witness3: witness(3),
    witness4: witness(4),
    witness5: witness(5),
    witness6: witness(6),
    witness7: witness(7),
    witness8: witness(8),
    witness9: witness(9),
    witness10: witness(10),
    witness11: witness(11),
    witness12: witness(12),
    minister1,
    minister2,
    status: { blocked: r.chance(BLOCKED_SHARE), marginalNote: none(r, 0.003, MARRIAGE_NOTES) },
    previousRegistration: null,
    nextRegistration: null,
  };
}

function reregisterMarriage(r: Random, first: Rec, id: number): [Rec, Rec] {
  const whose = r.chance(0.5) ? 'bride' : 'groom';
  const party = first[whose];
  const second: Rec = {
    ...first,
    id,
    entryNumber: r.int(1, 250),
    [whose]: { ...party, age: party.age + (r.chance(0.5) || party.age <= 18 ? 1 : -1) },
    status: { blocked: r.chance(BLOCKED_SHARE), marginalNote: `Re-registration: ${whose}'s age corrected` },
  };
  return [{ ...first, status: { ...first.status, marginalNote: 'Marriage re-registered' } }, second];
}

// ---------------------------------------------------------------------------
// Civil partnerships
// ---------------------------------------------------------------------------

const NO_PARENT_OF_PARTNER = nullGroup('surname', 'forenames', 'occupation', 'retired', 'designation', 'deceased');
const PARTNERSHIP_NOTES = ['Entry corrected on the authority of the Registrar General', 'Civil partnership converted into a marriage', 'Partnership dissolved'];
const PARTNER_CONDITIONS = ['Divorced', 'Previous marriage dissolved', 'Widowed', 'Surviving civil partner', 'Previous civil partnership dissolved'];

function parentOfPartner(r: Random, who: Spouse, father: boolean, atYear: number): Rec {
  if (r.chance(father ? 0.03 : 0.01)) return NO_PARENT_OF_PARTNER;
  const d = r.float();
  const family = father ? (r.chance(0.9) ? who.family : surname(r, who.community)) : r.chance(0.6) ? who.family : surname(r, who.community);
  return {
    surname: gendered(family, father).toUpperCase(),
    forenames: forenames(r, who.community, father, who.bornIn - 30),
    occupation: father || r.chance(0.85) ? occupation(r, Math.min(atYear, who.bornIn + 25), father) : null,
    retired: who.age >= 35 && r.chance(Math.min(0.9, (who.age - 30) / 25)),
    designation: d < 0.8 ? null : d < 0.96 ? (father ? 'Father' : 'Mother') : d < 0.98 ? (father ? 'Adoptive father' : 'Adoptive mother') : father ? 'Stepfather' : 'Stepmother',
    deceased: r.chance(Math.max(0.02, Math.min(0.95, (who.age - 20) / 55))),
  };
}

function partner(r: Random, who: Spouse, formed: number, home: string): Rec {
  const year = yearOf(formed);
  const names = forenames(r, who.community, who.male, who.bornIn);
  const family = gendered(who.family, who.male);
  const SURNAME = family.toUpperCase();
  return {
    prefix: prefix(r, who.male, 0.03),
    forenames: names,
    surname: SURNAME,
    suffix: suffix(r, 0.004),
    address: home,
    dob: iso(yearsBefore(r, formed, who.age)),
    sex: who.male ? 'Male' : 'Female',
    aliases: r.chance(0.015) ? [{ prefix: null, forenames: firstWord(names), surname: SURNAME, suffix: null }] : [],
    occupation: occupation(r, year, who.male),
    retired: who.age >= 65 && r.chance(0.8),
    condition: r.chance(0.88) ? 'Single' : year >= 2007 ? r.pick(PARTNER_CONDITIONS) : r.pick(PARTNER_CONDITIONS.slice(0, 3)),
    signature: signed(names, family),
  };
}

function buildPartnership(r: Random, id: number): Rec {
  const place = pickPlace(r);
  // Many long-standing couples registered in the first years.
  const formed = r.chance(0.3) ? r.int(PARTNERSHIP_RANGE[0], dayNumber(2008, 12, 31)) : r.int(PARTNERSHIP_RANGE[0], PARTNERSHIP_RANGE[1]);
  const year = yearOf(formed);
  const wales = place.district.wales;
  const oppositeSex = formed >= OPPOSITE_SEX_PARTNERSHIPS && r.chance(0.7);
  const firstMale = r.chance(oppositeSex ? 0.5 : year < 2014 ? 0.58 : 0.45);
  const secondMale = oppositeSex ? !firstMale : firstMale;
  const age1 = r.bell(21, year < 2010 ? 76 : 66);
  const age2 = Math.min(90, Math.max(18, age1 + r.int(-12, 12)));
  const c1 = pickCommunity(r, wales, year - age1);
  const c2 = r.chance(0.75) ? c1 : pickCommunity(r, wales, year - age2);
  const p1: Spouse = { male: firstMale, age: age1, bornIn: year - age1, community: c1, family: surname(r, c1) };
  const p2: Spouse = { male: secondMale, age: age2, bornIn: year - age2, community: c2, family: surname(r, c2) };
  const home1 = address(r, place);
  const home2 = r.chance(0.7) ? home1 : address(r, nearby(r, place));
  const street = r.weighted(STREET_TABLE);
  const venue = r.chance(0.5) ? r.pick(VENUES) : null;
  const witness = (): Rec => {
    const c = r.chance(0.5) ? c1 : c2;
    const male = r.chance(0.5);
    return { forename: forename(r, c, male, year - 35), surname: gendered(surname(r, c), male) };
  };

  return {
    id,
    dateOfPartnership: iso(formed),
    placeOfPartnership: venue
      ? { address: `${venue}, ${street}, ${place.postTown}`, short: `${venue}, ${place.town}` }
      : { address: `Register Office, ${street}, ${place.postTown}`, short: `${place.district.name} Register Office` },
    registrar: { signature: official(r) },
    partner1: partner(r, p1, formed, home1),
    partner2: partner(r, p2, formed, home2),
    fatherOfPartner1: parentOfPartner(r, p1, true, year),
    motherOfPartner1: parentOfPartner(r, p1, false, year),
    fatherOfPartner2: parentOfPartner(r, p2, true, year),
    motherOfPartner2: parentOfPartner(r, p2, false, year),
    witness1: witness(),
    witness2: witness(),
    status: { blocked: r.chance(BLOCKED_SHARE), marginalNote: none(r, 0.003, PARTNERSHIP_NOTES) },
    previousRegistration: null,
    nextRegistration: null,
  };
}

function reregisterPartnership(r: Random, first: Rec, id: number): [Rec, Rec] {
  const which = r.chance(0.5) ? 'partner1' : 'partner2';
  const party = first[which];
  const formed = parseDay(first.dateOfPartnership);
  const dob = parseDay(party.dob);
  const shift = r.int(1, 400);
  // Corrected by up to a year or so, never making the partner under 18.
  const corrected = r.chance(0.5) && ageOn(dob + shift, formed) >= 18 ? dob + shift : dob - shift;
  const second: Rec = {
    ...first,
    id,
    [which]: { ...party, dob: iso(corrected) },
    status: { blocked: r.chance(BLOCKED_SHARE), marginalNote: `Re-registration: ${which === 'partner1' ? 'partner 1' : 'partner 2'}'s date of birth corrected` },
  };
  return [{ ...first, status: { ...first.status, marginalNote: 'Civil partnership re-registered' } }, second];
}

// ---------------------------------------------------------------------------
// The stream
// ---------------------------------------------------------------------------

interface Kind {
  readonly description: RecordDescription;
  readonly build: (r: Random, id: number) => Rec;
  /** The first registration (amended) and its re-registration, both without links; none for a type built from its description alone. */
  readonly reregister?: (r: Random, first: Rec, id: number) => [Rec, Rec];
  /** Dates a search of this type plausibly asks for. */
  readonly dates: readonly [number, number];
  /** Leaves of the description the builder does not write (described after it was): filled from the description. */
  readonly absent: readonly string[];
}

/** The builders tuned by hand for the built-in types, by name. */
const TUNED: Record<TunedType, Omit<Kind, 'absent'>> = {
  birth: { description: birth, build: buildBirth, reregister: reregisterBirth, dates: BIRTH_RANGE },
  death: { description: death, build: buildDeath, reregister: reregisterDeath, dates: DEATH_RANGE },
  marriage: { description: marriage, build: buildMarriage, reregister: reregisterMarriage, dates: MARRIAGE_RANGE },
  partnership: { description: partnership, build: buildPartnership, reregister: reregisterPartnership, dates: PARTNERSHIP_RANGE },
};

/** The generator's pools, for the values made from a description alone (values.ts). */
export const VALUE_MAKERS: ValueMakers = {
  forenames: (r, male, bornIn) => forenames(r, ENGLISH, male, bornIn),
  surname: (r) => surname(r, ENGLISH),
  place: (r) => pickPlace(r).town,
  address: (r) => address(r, pickPlace(r)),
  occupation: (r, year, male) => occupation(r, year, male),
};

const DESCRIBED_DATES = [dayNumber(1950, 1, 1), LATEST] as const;

/** A record built from the description alone: every leaf filled, current, not blocked now and then. */
function describedBuild(description: RecordDescription): (r: Random, id: number) => Rec {
  const { blockedFlag } = description;
  const cancelled = description.verification.cancelledFlag;
  return (r, id) => {
    const record = fillFromDescription(description, blank(description.fields), r, VALUE_MAKERS);
    record.id = id;
    setFlag(record, blockedFlag, r.chance(BLOCKED_SHARE));
    if (cancelled) setFlag(record, cancelled, false);
    return record;
  };
}

function setFlag(record: Rec, path: string, value: boolean): void {
  const keys = path.split('.');
  let holder = record;
  for (const key of keys.slice(0, -1)) holder = holder[key];
  holder[keys[keys.length - 1]] = value;
}

const kinds = new WeakMap<RecordDescription, Kind>();

/**
 * How records of a type are made: its tuned builder when the generator has one for its name
 * (with any leaf the builder does not write filled from the description), else the description alone.
 */
function kindOf(type: string | RecordDescription): Kind {
  if (typeof type === 'string') {
    if (!isTunedType(type)) throw new RangeError(`unknown record type '${type}': expected one of ${TUNED_TYPES.join(', ')}`);
    return kindOf(TUNED[type].description);
  }
  let kind = kinds.get(type);
  if (!kind) {
    const tuned = isTunedType(type.name) ? TUNED[type.name] : undefined;
    if (tuned) {
      const sample = tuned.build(Random.fromString('lev-generate absent leaves'), 1);
      kind = { ...tuned, description: type, absent: absentLeaves(type, sample) };
    } else {
      kind = { description: type, build: describedBuild(type), dates: DESCRIBED_DATES, absent: [] };
    }
    kinds.set(type, kind);
  }
  return kind;
}

function checkOptions(options: GenerateOptions): { count: number; firstId: number } {
  const { count } = options;
  const firstId = options.firstId ?? DEFAULT_FIRST_ID;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number, 0 or more (got ${count})`);
  if (!Number.isSafeInteger(firstId) || firstId < 0) throw new RangeError(`firstId must be a whole number, 0 or more (got ${firstId})`);
  if (!Number.isSafeInteger(firstId + count)) throw new RangeError('firstId + count is beyond the largest safe id');
  return { count, firstId };
}

const typeName = (type: string | RecordDescription) => (typeof type === 'string' ? type : type.name);
const streamSeed = (type: string | RecordDescription, seed: string): Seed => hashSeed(`lev-generate\u0000${typeName(type)}\u0000${seed}`);
/** The stream of the values a tuned builder does not write: apart from its own, so its records stay as they were. */
const absentSeed = (type: string | RecordDescription, seed: string): Seed => hashSeed(`lev-generate-absent\u0000${typeName(type)}\u0000${seed}`);

/**
 * The records of block `block` (positions 2·block and 2·block + 1): two
 * independent registrations, or a registration and its re-registration, each
 * embedding the other (pointing outwards only). `both` is false for a last
 * block with room for one record; the first record is the same either way.
 */
function makeBlock(kind: Kind, seed: Seed, absent: Seed, block: number, firstId: number, both: boolean): Rec[] {
  const r = Random.derive(seed, block);
  const complete = kind.absent.length
    ? ((extra: Random) => (record: Rec) => fillFromDescription(kind.description, record, extra, VALUE_MAKERS, { paths: kind.absent }))(Random.derive(absent, block))
    : (record: Rec) => record;
  const paired = r.chance(PAIR_SHARE);
  const id = firstId + block * 2;
  const first = complete(kind.build(r, id));
  if (!both) return [first];
  if (!paired || !kind.reregister) return [first, complete(kind.build(r, id + 1))];
  const [earlier, later] = kind.reregister(r, first, id + 1).map(complete);
  return [
    { ...earlier, nextRegistration: later },
    { ...later, previousRegistration: earlier },
  ];
}

/**
 * `count` complete v1 records of `type` (a description, or the name of a tuned type), ids
 * `firstId`, `firstId + 1`, ... Lazy: memory stays constant whatever the count.
 */
export function* generateRecords(type: string | RecordDescription, options: GenerateOptions): Generator<Record<string, unknown>> {
  const kind = kindOf(type);
  const { count, firstId } = checkOptions(options);
  const seed = streamSeed(type, options.seed);
  const absent = absentSeed(type, options.seed);
  for (let position = 0, block = 0; position < count; position += 2, block++) {
    const records = makeBlock(kind, seed, absent, block, firstId, position + 1 < count);
    yield records[0];
    if (records.length > 1) yield records[1];
  }
}

/** The record at `position` (0-based) of the stream `generateRecords(type, options)` gives. */
export function recordAt(type: string | RecordDescription, options: GenerateOptions, position: number): Record<string, unknown> {
  const kind = kindOf(type);
  const { count, firstId } = checkOptions(options);
  if (!Number.isSafeInteger(position) || position < 0 || position >= count) throw new RangeError(`position ${position} is outside 0..${count - 1}`);
  const block = Math.floor(position / 2);
  const records = makeBlock(kind, streamSeed(type, options.seed), absentSeed(type, options.seed), block, firstId, block * 2 + 1 < count);
  return records[position % 2];
}

export interface SearchSample {
  /** A v1 search query: `surname`, `forenames` and the type's date parameter (e.g. `dateOfBirth`). */
  readonly query: Readonly<Record<string, string>>;
  /** The id of a record the search must find (it may find others too), or null when it must find nothing. */
  readonly expectId: number | null;
}

/**
 * `n` v1 search queries against the records `generateRecords(type, options)`
 * gives, alternating hits and misses. A hit is made from a record rebuilt from
 * its position (positions spread evenly over the stream; forenames given in
 * full or as the first word; for deaths the date of birth or of death; for
 * marriages and partnerships either party). A miss asks for a plausible
 * forename and date with a surname the generator never uses.
 */
export function searchSample(type: string | RecordDescription, options: GenerateOptions, n: number): SearchSample[] {
  const kind = kindOf(type);
  const { count } = checkOptions(options);
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`n must be a whole number, 0 or more (got ${n})`);
  const r = Random.fromString(`lev-search\u0000${typeName(type)}\u0000${options.seed}`);
  const { parties, dateParam } = kind.description.search;
  const hits = count === 0 ? 0 : Math.ceil(n / 2);
  const samples: SearchSample[] = [];
  for (let i = 0; i < n; i++) {
    const j = i >> 1;
    if (i % 2 === 0 && j < hits) {
      const position = Math.min(count - 1, Math.floor(((2 * j + 1) * count) / (2 * hits)));
      const record = recordAt(type, options, position);
      const party = parties[j % parties.length];
      const surname = readPath(record, party.surname) as string;
      const forenames = readPath(record, party.forenames) as string;
      const dates = party.dates.map((path) => readPath(record, path)).filter((d): d is string => typeof d === 'string');
      samples.push({
        query: { surname, forenames: r.chance(0.5) ? firstWord(forenames) : forenames, [dateParam]: dates[r.int(0, dates.length - 1)] },
        expectId: record.id as number,
      });
    } else {
      const male = r.chance(0.5);
      const bornIn = r.int(1900, 2020);
      samples.push({
        query: { surname: r.pick(MISS_SURNAMES), forenames: forename(r, pickCommunity(r, false, bornIn), male, bornIn), [dateParam]: iso(r.int(kind.dates[0], kind.dates[1])) },
        expectId: null,
      });
    }
  }
  return samples;
}
