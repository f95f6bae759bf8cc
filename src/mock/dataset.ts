/**
 * The built-in mock dataset served by `npm start`: invented people in invented
 * places, one fully populated record (id 123456789) per type plus the scenario
 * records listed in `scenarios`. Deterministic: every call builds the same data.
 *
 * Records are built from a blank copy of their field tree (every key present,
 * every value null), so a record cannot miss a field, and a misspelt field in
 * the data below is an error rather than an extra key.
 */
import type { RecordDescription } from '../records/define.ts';
import { addDays } from '../match/dates.ts';
import type { MatchKind } from '../match/vocabulary.ts';
import { importFolder, soleExport } from '../module-folder.ts';
import { birth } from '../records/types/birth.ts';
import { death } from '../records/types/death.ts';
import { marriage } from '../records/types/marriage.ts';
import { partnership } from '../records/types/partnership.ts';
import { VALUE_MAKERS } from '../generate/records.ts';
import { Random } from '../generate/random.ts';
import { blank, fillFromDescription } from '../generate/values.ts';

type Data = { [key: string]: unknown };

/** The id of each type's record with every field filled. */
export const FULL_ID = 123456789;

export interface Scenario {
  readonly id: number;
  /** The record type's name. */
  readonly type: string;
  /** What the record demonstrates, for the README table. */
  readonly shows: string;
  /** A v1 search query that finds the record. */
  readonly search: Readonly<Record<string, string>>;
  /**
   * A query for `/v1/suggestions/<type>` with details slightly wrong, whose first candidate is the
   * record, and what each of its parameters matched (docs/search.md).
   */
  readonly suggestion?: CloseMatch;
}

export interface CloseMatch {
  readonly query: Readonly<Record<string, string>>;
  readonly matched: Readonly<Record<string, MatchKind>>;
}

/** A close-match scenario's query and what it matched, by parameter: surname, forenames, then the date. */
const close = (date: string, query: [string, string, string], matched: [MatchKind, MatchKind, MatchKind]): CloseMatch => ({
  query: { surname: query[0], forenames: query[1], [date]: query[2] },
  matched: { surname: matched[0], forenames: matched[1], [date]: matched[2] },
});

// ---------------------------------------------------------------------------
// Scenarios (what each record is for, and how to find it)
// ---------------------------------------------------------------------------

const MARSDEN = { surname: 'Marsden', forenames: 'George', dateOfBirth: '2010-03-14' };
const WHITCOMBE = { surname: 'Whitcombe', forenames: 'Isabelle', dateOfBirth: '2015-04-20' };
const RIDLEY = { surname: 'Ridley', forenames: 'Samuel', dateOfBirth: '2003-09-09' };
const HARGREAVES = { surname: 'Hargreaves', forenames: 'Margaret', date: '2011-11-05' };
const GASKELL = { surname: 'Gaskell', forenames: 'Albert', date: '2013-01-28' };
const HUGHES = { surname: 'Hughes', forenames: 'Thomas', dateOfMarriage: '2015-06-20' };
const BARRACLOUGH = { surname: 'Barraclough', forenames: 'Philip', dateOfMarriage: '2009-08-15' };
const BRADSHAW = { surname: 'Bradshaw', forenames: 'James', dateOfPartnership: '2014-09-27' };
const QUAYLE = { surname: 'Quayle', forenames: 'Gillian', dateOfPartnership: '2010-05-22' };

const handWritten: readonly Scenario[] = [
  // Births
  {
    id: 123456789,
    type: 'birth',
    shows: 'Every field filled, including a changed forename; a close match by a nickname and a digit out',
    search: { surname: 'Ashworth', forenames: 'Eleanor', dateOfBirth: '2008-08-08' },
    suggestion: close('dateOfBirth', ['Ashworth', 'Ellie', '2008-08-09'], ['exact', 'nickname', 'near-date']),
  },
  { id: 999999001, type: 'birth', shows: 'Several matches: one of three births found by the same search', search: MARSDEN },
  { id: 999999002, type: 'birth', shows: 'Several matches: the second of the three', search: MARSDEN },
  { id: 999999003, type: 'birth', shows: 'Several matches: the third of the three', search: MARSDEN },
  { id: 999999010, type: 'birth', shows: 'Single match, born on a leap day, registered in Wales', search: { surname: 'Llewellyn', forenames: 'Poppy', dateOfBirth: '2012-02-29' } },
  { id: 999999020, type: 'birth', shows: 'Blocked: only the id and the blocked flag are shown', search: { surname: 'Carrow', forenames: 'Felix', dateOfBirth: '2005-11-02' } },
  { id: 999999030, type: 'birth', shows: 'Registration with a correction', search: { surname: 'Pemberton', forenames: 'Rosalind', dateOfBirth: '2011-07-19' } },
  { id: 999999031, type: 'birth', shows: 'Registration with a marginal note', search: { surname: 'Quennell', forenames: 'Harry', dateOfBirth: '2013-04-06' } },
  { id: 999999032, type: 'birth', shows: 'Cancelled registration: found by a search, never verified', search: { surname: 'Tremlett', forenames: 'Oscar', dateOfBirth: '2007-01-23' } },
  { id: 999999040, type: 'birth', shows: 'Re-registration chain: the first registration, linked to its replacement', search: WHITCOMBE },
  { id: 999999041, type: 'birth', shows: 'Re-registration chain: the re-registration, linked back to the first', search: WHITCOMBE },
  { id: 999999050, type: 'birth', shows: 'Chain of three: the first registration; the blocked second one is embedded but hidden', search: RIDLEY },
  { id: 999999051, type: 'birth', shows: 'Chain of three: the blocked middle registration', search: RIDLEY },
  { id: 999999052, type: 'birth', shows: 'Chain of three: the last registration; its predecessor is blocked, the first shown', search: RIDLEY },
  {
    id: 999999060,
    type: 'birth',
    shows: 'Accented forenames and surname; a close match with the accents left out is normalised',
    search: { surname: 'Dufrêne', forenames: 'Zoë', dateOfBirth: '2014-12-03' },
    suggestion: close('dateOfBirth', ['Dufrene', 'Zoe', '2014-12-03'], ['normalised', 'word-prefix', 'exact']),
  },
  { id: 999999061, type: 'birth', shows: 'Hyphenated forename and surname', search: { surname: 'Fairfax-Lowe', forenames: 'Lily-Rose', dateOfBirth: '2009-06-30' } },
  { id: 999999062, type: 'birth', shows: 'Surname with an apostrophe', search: { surname: "O'Donoghue", forenames: 'Niamh', dateOfBirth: '2016-01-17' } },
  // Close matches: one record for each kind of match, found first by details slightly wrong.
  {
    id: 999999070,
    type: 'birth',
    shows: 'Close match by a nickname: Bill for William',
    search: { surname: 'Pryce', forenames: 'William', dateOfBirth: '2011-05-09' },
    suggestion: close('dateOfBirth', ['Pryce', 'Bill', '2011-05-09'], ['exact', 'nickname', 'exact']),
  },
  {
    id: 999999071,
    type: 'birth',
    shows: 'Close match by sound: Kathryn for Catherine, Smith for Smyth',
    search: { surname: 'Smyth', forenames: 'Catherine', dateOfBirth: '2012-10-22' },
    suggestion: close('dateOfBirth', ['Smith', 'Kathryn', '2012-10-22'], ['sound-alike', 'sound-alike', 'exact']),
  },
  {
    id: 999999072,
    type: 'birth',
    shows: 'Close match by spelling: Thomson for Thompson (one letter out)',
    search: { surname: 'Thompson', forenames: 'Alfie', dateOfBirth: '2010-02-17' },
    suggestion: close('dateOfBirth', ['Thomson', 'Alfie', '2010-02-17'], ['spelling', 'exact', 'exact']),
  },
  {
    id: 999999073,
    type: 'birth',
    shows: 'Close match by part of a name: Cartwright for Ashby-Cartwright, the middle name Mae given as the first',
    search: { surname: 'Ashby-Cartwright', forenames: 'Esme Mae', dateOfBirth: '2014-08-25' },
    suggestion: close('dateOfBirth', ['Cartwright', 'Mae', '2014-08-25'], ['part-of-name', 'part-of-name', 'exact']),
  },
  {
    id: 999999074,
    type: 'birth',
    shows: 'Close match with the names swapped: surname Morgan, forenames Elliot, for Morgan Elliot',
    search: { surname: 'Elliot', forenames: 'Morgan', dateOfBirth: '2009-09-12' },
    suggestion: close('dateOfBirth', ['Morgan', 'Elliot', '2009-09-12'], ['swapped', 'swapped', 'exact']),
  },
  {
    id: 999999075,
    type: 'birth',
    shows: 'Close match with the day and month exchanged: 2013-07-04 for 2013-04-07',
    search: { surname: 'Linthwaite', forenames: 'Harriet', dateOfBirth: '2013-04-07' },
    suggestion: close('dateOfBirth', ['Linthwaite', 'Harriet', '2013-07-04'], ['exact', 'exact', 'day-month-swapped']),
  },
  {
    id: 999999076,
    type: 'birth',
    shows: 'Close match by a near date: 2016-01-01 for 2015-12-30, across the year',
    search: { surname: 'Oakden', forenames: 'Jasper', dateOfBirth: '2015-12-30' },
    suggestion: close('dateOfBirth', ['Oakden', 'Jasper', '2016-01-01'], ['exact', 'exact', 'near-date']),
  },


  // Deaths
  { id: 123456789, type: 'death', shows: 'Every field filled, including two other names', search: { surname: 'Thorne', forenames: 'Margery', date: '2009-11-21' } },
  { id: 999999001, type: 'death', shows: 'Several matches: one of three deaths on the same day found by the same search', search: HARGREAVES },
  { id: 999999002, type: 'death', shows: 'Several matches: the second of the three', search: HARGREAVES },
  { id: 999999003, type: 'death', shows: 'Several matches: the third of the three', search: HARGREAVES },
  {
    id: 999999010,
    type: 'death',
    shows: 'Single match, found by the date of birth; a close match by a nickname and a day out (the register writes the surname in capitals)',
    search: { surname: 'Priddy', forenames: 'Walter', date: '1930-06-14' },
    suggestion: close('date', ['Priddy', 'Walt', '1930-06-15'], ['normalised', 'nickname', 'near-date']),
  },
  { id: 999999020, type: 'death', shows: 'Blocked: only the id and the blocked flag are shown', search: { surname: 'Mowbray', forenames: 'Cecil', date: '2012-04-18' } },
  { id: 999999030, type: 'death', shows: 'Registration with a correction', search: { surname: 'Fenwick', forenames: 'Dorothy', date: '2010-10-02' } },
  { id: 999999040, type: 'death', shows: 'Re-registration chain: the first registration, linked to its replacement', search: GASKELL },
  { id: 999999041, type: 'death', shows: 'Re-registration chain: the re-registration after an inquest, linked back to the first', search: GASKELL },
  { id: 999999050, type: 'death', shows: 'Accented forenames and surname', search: { surname: 'Bjørnstad', forenames: 'Øyvind', date: '2015-03-11' } },
  { id: 999999051, type: 'death', shows: 'Hyphenated forename and surname', search: { surname: 'Holloway-Price', forenames: 'Sarah-Jane', date: '2018-07-04' } },
  { id: 999999052, type: 'death', shows: 'Surname with an apostrophe', search: { surname: "O'Rourke", forenames: 'Declan', date: '2011-02-14' } },
  { id: 999999060, type: 'death', shows: 'Born and died on the same day: one search by that date finds it once', search: { surname: 'Ellerby', forenames: 'Thomas', date: '2016-05-23' } },
  { id: 999999061, type: 'death', shows: 'Date of birth not known: found only by the date of death', search: { surname: 'Carlyle', forenames: 'Edwin', date: '2017-02-09' } },

  // Marriages
  { id: 123456789, type: 'marriage', shows: 'Every field filled, including twelve witnesses and two ministers', search: { surname: 'Merridew', forenames: 'Daniel', dateOfMarriage: '2008-08-08' } },
  { id: 999999001, type: 'marriage', shows: 'Several matches: one of three grooms of the same name married on the same day', search: HUGHES },
  { id: 999999002, type: 'marriage', shows: 'Several matches: the second of the three', search: HUGHES },
  { id: 999999003, type: 'marriage', shows: 'Several matches: the third of the three', search: HUGHES },
  { id: 999999010, type: 'marriage', shows: 'Single match, found through the groom', search: { surname: 'Corbett', forenames: 'Matthew', dateOfMarriage: '2012-09-01' } },
  {
    id: 999999010,
    type: 'marriage',
    shows: "The same marriage, found through the bride; a close match by her surname's spelling and the day and month exchanged",
    search: { surname: 'Fairweather', forenames: 'Lucy', dateOfMarriage: '2012-09-01' },
    suggestion: close('dateOfMarriage', ['Fairwether', 'Lucy', '2012-01-09'], ['sound-alike', 'word-prefix', 'day-month-swapped']),
  },
  { id: 999999020, type: 'marriage', shows: 'Blocked: only the id and the blocked flag are shown', search: { surname: 'Stanhope', forenames: 'Clara', dateOfMarriage: '2006-04-29' } },
  { id: 999999040, type: 'marriage', shows: 'Re-registration chain: the first registration, linked to its replacement', search: BARRACLOUGH },
  { id: 999999041, type: 'marriage', shows: 'Re-registration chain: the re-registration, linked back to the first', search: BARRACLOUGH },
  { id: 999999050, type: 'marriage', shows: 'Accented forenames and surname (the bride)', search: { surname: 'Lefèvre', forenames: 'Chloë', dateOfMarriage: '2017-05-13' } },
  { id: 999999051, type: 'marriage', shows: 'Hyphenated forename and surname (the groom)', search: { surname: 'Ashby-Grant', forenames: 'Jean-Luc', dateOfMarriage: '2011-07-23' } },
  { id: 999999052, type: 'marriage', shows: 'Surname with an apostrophe (the bride)', search: { surname: "O'Dwyer", forenames: 'Siobhan', dateOfMarriage: '2013-10-12' } },

  // Civil partnerships
  { id: 123456789, type: 'partnership', shows: 'Every field filled, including other names and step-parents', search: { surname: 'Kingsley', forenames: 'Oliver', dateOfPartnership: '2008-08-08' } },
  { id: 999999001, type: 'partnership', shows: 'Several matches: one of three partnerships found by the same search', search: BRADSHAW },
  { id: 999999002, type: 'partnership', shows: 'Several matches: the second of the three', search: BRADSHAW },
  { id: 999999003, type: 'partnership', shows: 'Several matches: the third of the three', search: BRADSHAW },
  { id: 999999010, type: 'partnership', shows: 'Single match, found through partner 1', search: { surname: 'Stockdale', forenames: 'Helen', dateOfPartnership: '2012-06-16' } },
  { id: 999999010, type: 'partnership', shows: 'The same partnership, found through partner 2', search: { surname: 'Ainsworth', forenames: 'Ruth', dateOfPartnership: '2012-06-16' } },
  { id: 999999020, type: 'partnership', shows: 'Blocked: only the id and the blocked flag are shown', search: { surname: 'Penhallow', forenames: 'Marcus', dateOfPartnership: '2007-03-03' } },
  { id: 999999040, type: 'partnership', shows: 'Re-registration chain: the first registration, linked to its replacement', search: QUAYLE },
  { id: 999999041, type: 'partnership', shows: 'Re-registration chain: the re-registration, linked back to the first', search: QUAYLE },
  { id: 999999050, type: 'partnership', shows: 'Accented forenames and surname (partner 2)', search: { surname: 'Núñez', forenames: 'José', dateOfPartnership: '2016-08-06' } },
  { id: 999999051, type: 'partnership', shows: 'Hyphenated forename and surname (partner 1)', search: { surname: 'Weston-Hyde', forenames: 'Mary-Claire', dateOfPartnership: '2015-02-14' } },
  { id: 999999052, type: 'partnership', shows: "Surname with an apostrophe (partner 2)", search: { surname: "D'Arcy", forenames: 'Fiona', dateOfPartnership: '2018-11-10' } },
];

/** Close matches through the weaker levels of evidence, each found first all the same. */
const closeMatchLevels: readonly Scenario[] = [
  {
    id: 999999078,
    type: 'birth',
    shows: 'Close match with a married surname: Fenwick for Halloran, the forenames and date exact',
    search: { surname: 'Halloran', forenames: 'Rebecca', dateOfBirth: '2012-06-18' },
    suggestion: close('dateOfBirth', ['Fenwick', 'Rebecca', '2012-06-18'], ['different', 'exact', 'exact']),
  },
  {
    id: 999999079,
    type: 'birth',
    shows: 'Close match with both names misspelt: Sebsatain Cuthbrestno for Sebastian Cuthbertson',
    search: { surname: 'Cuthbertson', forenames: 'Sebastian', dateOfBirth: '2005-10-13' },
    suggestion: close('dateOfBirth', ['Cuthbrestno', 'Sebsatain', '2005-10-13'], ['similar', 'two-edits', 'exact']),
  },
  {
    id: 999999080,
    type: 'birth',
    shows: 'Close match with the date two digits out: 2007-08-24 for 2007-03-21',
    search: { surname: 'Wainwright', forenames: 'Tobias', dateOfBirth: '2007-03-21' },
    suggestion: close('dateOfBirth', ['Wainwright', 'Tobias', '2007-08-24'], ['exact', 'exact', 'two-digits']),
  },
  {
    id: 999999081,
    type: 'birth',
    shows: 'Close match with a digit of the year out: 2001-04-16 for 2011-04-16',
    search: { surname: 'Castleford', forenames: 'Imogen', dateOfBirth: '2011-04-16' },
    suggestion: close('dateOfBirth', ['Castleford', 'Imogen', '2001-04-16'], ['exact', 'exact', 'year-digit']),
  },
  {
    id: 999999082,
    type: 'birth',
    shows: 'Close match with the date within a month: 2006-06-07 for 2006-05-29',
    search: { surname: 'Rowntree', forenames: 'Felicity', dateOfBirth: '2006-05-29' },
    suggestion: close('dateOfBirth', ['Rowntree', 'Felicity', '2006-06-07'], ['exact', 'exact', 'within-month']),
  },
  {
    id: 999999083,
    type: 'birth',
    shows: 'Close match with a surname spelt a little alike: Ravensdale for Ravenscroft',
    search: { surname: 'Ravenscroft', forenames: 'Oswin', dateOfBirth: '1999-02-11' },
    suggestion: close('dateOfBirth', ['Ravensdale', 'Oswin', '1999-02-11'], ['loosely-similar', 'exact', 'exact']),
  },
];

/** Records no exact search can find (one needs forenames), shown by a close match alone. */
export const closeMatchOnlyScenarios: readonly (Omit<Scenario, 'search' | 'suggestion'> & { readonly suggestion: CloseMatch })[] = [
  {
    id: 999999077,
    type: 'birth',
    shows: 'No forenames registered: no exact search finds it; a close match says the forenames are missing',
    suggestion: close('dateOfBirth', ['Penhaligon', 'Rowan', '2017-03-12'], ['exact', 'missing', 'exact']),
  },
];

// ---------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------

const isPlain = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Overlays `patch` on `base` group by group; a key the base lacks is a mistake in the data. */
function merge(base: Data, patch: Data, path = ''): Data {
  const out: Data = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (!(key in base)) throw new Error(`mock dataset: there is no field ${path}${key}`);
    out[key] = isPlain(base[key]) && isPlain(value) ? merge(base[key], value, `${path}${key}.`) : value;
  }
  return out;
}

/**
 * Links a re-registration chain, oldest first. Each record embeds full copies
 * of its neighbours, and the copies point outwards only: a predecessor carries
 * its own predecessors, a successor its own successors.
 */
function chain(...records: Data[]): Data[] {
  const before = (i: number): Data | null =>
    i < 0 ? null : { ...records[i], previousRegistration: before(i - 1), nextRegistration: null };
  const after = (i: number): Data | null =>
    i >= records.length ? null : { ...records[i], previousRegistration: null, nextRegistration: after(i + 1) };
  return records.map((record, i) => ({ ...record, previousRegistration: before(i - 1), nextRegistration: after(i + 1) }));
}

interface Name {
  forenames: string;
  surname: string;
}
const nm = (forenames: string, surname: string): Name => ({ forenames, surname });

/** Capitalises each part of an upper-case register surname: O'ROURKE → O'Rourke. */
const properCase = (name: string) =>
  name.toLowerCase().replace(/(^|[\s'’-])(\p{L})/gu, (_, gap: string, letter: string) => gap + letter.toUpperCase());

/** A signature as a person might write it: first initial and surname. */
const signed = ({ forenames, surname }: Name) => `${forenames[0]}. ${properCase(surname)}`;

interface Place {
  district: string;
  subdistrict: string;
  area: string;
  town: string;
  hospital: string;
  registrar: string;
  superintendent: string;
  doctor: string;
  coroner: string;
}

const KESTLEWICK: Place = {
  district: 'Kestlewick',
  subdistrict: 'Kestlewick North',
  area: 'Aldershire',
  town: 'Kestlewick',
  hospital: 'Kestlewick General Hospital',
  registrar: 'M. Ollerenshaw',
  superintendent: 'D. Kettleborough',
  doctor: 'Dr A. Venables MB ChB',
  coroner: 'Helena Marsh',
};
const HALSWORTH: Place = {
  district: 'Halsworth Vale',
  subdistrict: 'Brindle Cross',
  area: 'Halsworth',
  town: 'Brindle Cross',
  hospital: 'Halsworth Royal Infirmary',
  registrar: 'S. Pickavance',
  superintendent: 'R. Entwistle',
  doctor: 'Dr K. Oduya MRCP',
  coroner: 'Graham Tollervey',
};
const PENNOCK: Place = {
  district: 'Pennock Bay',
  subdistrict: 'Saltings',
  area: 'Lindmoor',
  town: 'Pennock Bay',
  hospital: 'Pennock Bay Community Hospital',
  registrar: 'J. Trevaskis',
  superintendent: 'L. Penberthy',
  doctor: 'Dr F. Carrick MB BS',
  coroner: 'Anne Rosewarne',
};
const CWM_ARAN: Place = {
  district: 'Cwm Aran',
  subdistrict: 'Llanfedw',
  area: 'Glanaran',
  town: 'Llanfedw',
  hospital: 'Ysbyty Dyffryn Aran',
  registrar: 'G. Prosser',
  superintendent: 'E. Vaughan-Jenkins',
  doctor: 'Dr M. Pritchard MB BCh',
  coroner: 'Owain Tudur',
};

const at = (place: Place, street: string) => `${street}, ${place.town}`;

// ---------------------------------------------------------------------------
// Births
// ---------------------------------------------------------------------------

interface BirthSpec {
  id: number;
  entry: number;
  registered: string;
  place: Place;
  child: Name & { dateOfBirth: string; sex: 'Male' | 'Female' };
  mother: Name & { birthplace: string; occupation?: string; maidenSurname?: string; marriageSurname?: string };
  /** Omitted when the father was not named in the register. */
  father?: Name & { birthplace: string; occupation?: string };
  blocked?: boolean;
  more?: Data;
}

function birthRecord(s: BirthSpec): Data {
  const parent = (p: BirthSpec['mother'] | NonNullable<BirthSpec['father']>) => ({
    forenames: p.forenames,
    surname: p.surname,
    birthplace: p.birthplace,
    occupation: p.occupation,
  });
  const informant = (p: Name, qualification: string) => ({
    forenames: p.forenames,
    surname: p.surname,
    qualification,
    signature: signed(p),
    signatureIsMark: false,
  });
  const record = merge(blank(birth.fields), {
    id: s.id,
    date: s.registered,
    entryNumber: s.entry,
    registrar: {
      signature: s.place.registrar,
      designation: 'Registrar',
      subdistrict: s.place.subdistrict,
      district: s.place.district,
      administrativeArea: s.place.area,
    },
    informant1: informant(s.mother, 'Mother'),
    informant2: s.father ? informant(s.father, 'Father') : undefined,
    child: { ...s.child, birthplace: at(s.place, s.place.hospital) },
    mother: {
      ...parent(s.mother),
      maidenSurname: s.mother.maidenSurname ?? s.mother.surname,
      marriageSurname: s.mother.marriageSurname,
    },
    father: s.father ? { ...parent(s.father), deceased: false } : undefined,
    status: {
      blocked: s.blocked ?? false,
      cancelled: false,
      correction: 'None',
      marginalNote: 'None',
      nameUpdate: 'None',
      onAuthorityOfRegistrarGeneral: false,
      potentiallyFictitious: false,
      praOrCourtOrder: 'None',
      reregistration: 'None',
    },
  });
  return merge(record, s.more ?? {});
}

function births(): Data[] {
  const full = birthRecord({
    id: 123456789,
    entry: 214,
    registered: '2008-09-02',
    place: KESTLEWICK,
    child: { ...nm('Eleanor Rose', 'Ashworth'), dateOfBirth: '2008-08-08', sex: 'Female' },
    mother: { ...nm('Catherine Louise', 'Ashworth'), birthplace: 'Aldbury St Giles', occupation: 'Pharmacist', maidenSurname: 'Pennington', marriageSurname: 'Doyle' },
    father: { ...nm('Jonathan Mark', 'Ashworth'), birthplace: 'Brindle Cross', occupation: 'Quantity surveyor' },
    more: {
      registrar: { superintendentSignature: KESTLEWICK.superintendent, superintendentDesignation: 'Superintendent Registrar' },
      informant1: { address: at(KESTLEWICK, '7 Larkspur Close') },
      informant2: { address: at(KESTLEWICK, '7 Larkspur Close') },
      child: { originalPrefix: 'Miss', prefix: 'Miss', originalForenames: 'Ellen Rose', originalSuffix: 'II', suffix: 'II' },
      mother: {
        prefix: 'Mrs',
        suffix: 'BPharm',
        address: at(KESTLEWICK, '7 Larkspur Close'),
        aliases: [
          { prefix: 'Miss', forenames: 'Catherine Louise', surname: 'Pennington', suffix: 'BPharm' },
          { prefix: 'Mrs', forenames: 'Catherine Louise', surname: 'Doyle', suffix: 'BPharm' },
        ],
      },
      father: {
        prefix: 'Mr',
        suffix: 'Jr',
        aliases: [
          { prefix: 'Mr', forenames: 'Jon', surname: 'Ashworth', suffix: 'Jr' },
          { prefix: 'Dr', forenames: 'Jonathan', surname: 'Ashworth-Hale', suffix: 'Jr' },
        ],
      },
      dateOfDeclaration: '2008-09-01',
      dateOfStatutoryDeclarationOfParentage: '2008-08-29',
      statutoryDeclarationOfParentage: 'Declaration of parentage made jointly by both parents',
      dateOfNameUpdate: '2009-02-11',
      status: {
        nameUpdate: 'Forenames changed within twelve months of registration',
        praOrCourtOrder: 'Parental responsibility agreement lodged',
      },
    },
  });

  const marsden = (id: number, entry: number, forenames: string, mother: Name, father: Name & { occupation: string }, place: Place) =>
    birthRecord({
      id,
      entry,
      registered: '2010-04-06',
      place,
      child: { ...nm(forenames, 'Marsden'), dateOfBirth: '2010-03-14', sex: 'Male' },
      mother: { ...mother, birthplace: place.town },
      father: { ...father, birthplace: place.town },
    });

  const whitcombe = {
    child: { ...nm('Isabelle Grace', 'Whitcombe'), dateOfBirth: '2015-04-20', sex: 'Female' as const },
    place: HALSWORTH,
  };
  const ridley = {
    child: { ...nm('Samuel Joseph', 'Ridley'), dateOfBirth: '2003-09-09', sex: 'Male' as const },
    place: PENNOCK,
  };

  return [
    full,
    marsden(999999001, 58, 'George Arthur', nm('Joanne', 'Marsden'), { ...nm('Craig Anthony', 'Marsden'), occupation: 'Electrician' }, KESTLEWICK),
    marsden(999999002, 61, 'George Henry', nm('Priya', 'Marsden'), { ...nm('Stuart', 'Marsden'), occupation: 'Bus driver' }, KESTLEWICK),
    marsden(999999003, 112, 'George William', nm('Kelly Marie', 'Marsden'), { ...nm('Lee', 'Marsden'), occupation: 'Plasterer' }, HALSWORTH),
    birthRecord({
      id: 999999010,
      entry: 37,
      registered: '2012-03-19',
      place: CWM_ARAN,
      child: { ...nm('Poppy Anwen', 'Llewellyn'), dateOfBirth: '2012-02-29', sex: 'Female' },
      mother: { ...nm('Carys', 'Llewellyn'), birthplace: 'Llanfedw', occupation: 'Primary school teacher', maidenSurname: 'Bevan' },
      father: { ...nm('Huw Gareth', 'Llewellyn'), birthplace: 'Pontyrhew', occupation: 'Farmer' },
    }),
    birthRecord({
      id: 999999020,
      entry: 403,
      registered: '2005-11-21',
      place: HALSWORTH,
      blocked: true,
      child: { ...nm('Felix Edmund', 'Carrow'), dateOfBirth: '2005-11-02', sex: 'Male' },
      mother: { ...nm('Imogen', 'Carrow'), birthplace: 'Halsworth', occupation: 'Solicitor' },
      father: { ...nm('Benedict', 'Carrow'), birthplace: 'Kestlewick', occupation: 'Architect' },
    }),
    birthRecord({
      id: 999999030,
      entry: 276,
      registered: '2011-08-01',
      place: KESTLEWICK,
      child: { ...nm('Rosalind Mary', 'Pemberton'), dateOfBirth: '2011-07-19', sex: 'Female' },
      mother: { ...nm('Fiona', 'Pemberton'), birthplace: 'Pennock Bay', occupation: 'Physiotherapist', maidenSurname: 'Gilchrist' },
      father: { ...nm('Adrian', 'Pemberton'), birthplace: 'Kestlewick', occupation: 'Police officer' },
      more: { status: { correction: "Clerical: spelling of the mother's birthplace corrected" } },
    }),
    birthRecord({
      id: 999999031,
      entry: 88,
      registered: '2013-04-22',
      place: PENNOCK,
      child: { ...nm('Harry James', 'Quennell'), dateOfBirth: '2013-04-06', sex: 'Male' },
      mother: { ...nm('Leanne', 'Quennell'), birthplace: 'Saltings', occupation: 'Care assistant' },
      more: { status: { marginalNote: 'Adoption order made' } },
    }),
    birthRecord({
      id: 999999032,
      entry: 17,
      registered: '2007-02-05',
      place: PENNOCK,
      child: { ...nm('Oscar Benedict', 'Tremlett'), dateOfBirth: '2007-01-23', sex: 'Male' },
      mother: { ...nm('Alison', 'Tremlett'), birthplace: 'Saltings', occupation: 'Lifeguard' },
      more: { status: { cancelled: true, marginalNote: 'Registration cancelled: entered in error' } },
    }),
    ...chain(
      birthRecord({
        id: 999999040,
        entry: 151,
        registered: '2015-05-11',
        ...whitcombe,
        mother: { ...nm('Hannah', 'Whitcombe'), birthplace: 'Brindle Cross', occupation: 'Dental nurse' },
        more: { status: { marginalNote: 'Birth re-registered' } },
      }),
      birthRecord({
        id: 999999041,
        entry: 32,
        registered: '2016-02-03',
        ...whitcombe,
        mother: { ...nm('Hannah', 'Tennant'), birthplace: 'Brindle Cross', occupation: 'Dental nurse', maidenSurname: 'Whitcombe' },
        father: { ...nm('Ross', 'Tennant'), birthplace: 'Halsworth', occupation: 'Joiner' },
        more: { status: { reregistration: 'Parents married after the birth' } },
      }),
    ),
    ...chain(
      birthRecord({
        id: 999999050,
        entry: 209,
        registered: '2003-09-24',
        ...ridley,
        mother: { ...nm('Donna', 'Ridley'), birthplace: 'Pennock Bay', occupation: 'Shop assistant' },
        more: { status: { marginalNote: 'Birth re-registered' } },
      }),
      birthRecord({
        id: 999999051,
        entry: 14,
        registered: '2004-01-12',
        blocked: true,
        ...ridley,
        mother: { ...nm('Donna', 'Ridley'), birthplace: 'Pennock Bay', occupation: 'Shop assistant' },
        father: { ...nm('Karl', 'Jessop'), birthplace: 'Lindmoor', occupation: 'Fisherman' },
        more: { status: { marginalNote: 'Birth re-registered', reregistration: "Father's details added" } },
      }),
      birthRecord({
        id: 999999052,
        entry: 97,
        registered: '2006-06-05',
        ...ridley,
        mother: { ...nm('Donna', 'Jessop'), birthplace: 'Pennock Bay', occupation: 'Shop assistant', maidenSurname: 'Ridley' },
        father: { ...nm('Karl', 'Jessop'), birthplace: 'Lindmoor', occupation: 'Fisherman' },
        more: { status: { reregistration: 'Parents married after the birth' } },
      }),
    ),
    birthRecord({
      id: 999999060,
      entry: 330,
      registered: '2014-12-15',
      place: HALSWORTH,
      child: { ...nm('Zoë Héloïse', 'Dufrêne'), dateOfBirth: '2014-12-03', sex: 'Female' },
      mother: { ...nm('Anaïs', 'Dufrêne'), birthplace: 'Rouen, France', occupation: 'Translator', maidenSurname: 'Leclère' },
      father: { ...nm('Øyvind', 'Dufrêne'), birthplace: 'Bergen, Norway', occupation: 'Marine engineer' },
    }),
    birthRecord({
      id: 999999061,
      entry: 190,
      registered: '2009-07-14',
      place: KESTLEWICK,
      child: { ...nm('Lily-Rose', 'Fairfax-Lowe'), dateOfBirth: '2009-06-30', sex: 'Female' },
      mother: { ...nm('Anne-Marie', 'Fairfax-Lowe'), birthplace: 'Kestlewick', occupation: 'Estate agent', maidenSurname: 'Fairfax' },
      father: { ...nm('Dominic', 'Fairfax-Lowe'), birthplace: 'Halsworth', occupation: 'Accountant' },
    }),
    birthRecord({
      id: 999999070,
      entry: 118,
      registered: '2011-05-20',
      place: HALSWORTH,
      child: { ...nm('William Arthur', 'Pryce'), dateOfBirth: '2011-05-09', sex: 'Male' },
      mother: { ...nm('Gwen', 'Pryce'), birthplace: 'Llanfedw', occupation: 'Teacher', maidenSurname: 'Rees' },
      father: { ...nm('Owen', 'Pryce'), birthplace: 'Halsworth', occupation: 'Electrician' },
    }),
    birthRecord({
      id: 999999071,
      entry: 402,
      registered: '2012-11-02',
      place: KESTLEWICK,
      child: { ...nm('Catherine Grace', 'Smyth'), dateOfBirth: '2012-10-22', sex: 'Female' },
      mother: { ...nm('Joanne', 'Smyth'), birthplace: 'Kestlewick', occupation: 'Nurse', maidenSurname: 'Hollis' },
      father: { ...nm('Martin', 'Smyth'), birthplace: 'Kestlewick', occupation: 'Plasterer' },
    }),
    birthRecord({
      id: 999999072,
      entry: 64,
      registered: '2010-03-01',
      place: HALSWORTH,
      child: { ...nm('Alfie', 'Thompson'), dateOfBirth: '2010-02-17', sex: 'Male' },
      mother: { ...nm('Leanne', 'Thompson'), birthplace: 'Halsworth', occupation: 'Hairdresser' },
    }),
    birthRecord({
      id: 999999073,
      entry: 277,
      registered: '2014-09-08',
      place: KESTLEWICK,
      child: { ...nm('Esme Mae', 'Ashby-Cartwright'), dateOfBirth: '2014-08-25', sex: 'Female' },
      mother: { ...nm('Philippa', 'Ashby-Cartwright'), birthplace: 'Kestlewick', occupation: 'Architect', maidenSurname: 'Ashby' },
      father: { ...nm('Neil', 'Ashby-Cartwright'), birthplace: 'Halsworth', occupation: 'Surveyor' },
    }),
    birthRecord({
      id: 999999074,
      entry: 301,
      registered: '2009-09-25',
      place: HALSWORTH,
      child: { ...nm('Morgan', 'Elliot'), dateOfBirth: '2009-09-12', sex: 'Male' },
      mother: { ...nm('Kerry', 'Elliot'), birthplace: 'Halsworth', occupation: 'Care worker' },
      father: { ...nm('Shane', 'Elliot'), birthplace: 'Halsworth', occupation: 'Driver' },
    }),
    birthRecord({
      id: 999999075,
      entry: 99,
      registered: '2013-04-19',
      place: KESTLEWICK,
      child: { ...nm('Harriet', 'Linthwaite'), dateOfBirth: '2013-04-07', sex: 'Female' },
      mother: { ...nm('Sophie', 'Linthwaite'), birthplace: 'Kestlewick', occupation: 'Pharmacist', maidenSurname: 'Dunn' },
      father: { ...nm('Ross', 'Linthwaite'), birthplace: 'Kestlewick', occupation: 'Chef' },
    }),
    birthRecord({
      id: 999999076,
      entry: 2,
      registered: '2016-01-08',
      place: HALSWORTH,
      child: { ...nm('Jasper', 'Oakden'), dateOfBirth: '2015-12-30', sex: 'Male' },
      mother: { ...nm('Rachel', 'Oakden'), birthplace: 'Halsworth', occupation: 'Solicitor', maidenSurname: 'Firth' },
    }),
    ...(
      [
        [999999078, 'Rebecca', 'Halloran', '2012-06-18', 'Female', 'Maria'],
        [999999079, 'Sebastian', 'Cuthbertson', '2005-10-13', 'Male', 'Jenna'],
        [999999080, 'Tobias', 'Wainwright', '2007-03-21', 'Male', 'Kirsty'],
        [999999081, 'Imogen', 'Castleford', '2011-04-16', 'Female', 'Laura'],
        [999999082, 'Felicity', 'Rowntree', '2006-05-29', 'Female', 'Abigail'],
        [999999083, 'Oswin', 'Ravenscroft', '1999-02-11', 'Male', 'Deborah'],
      ] as const
    ).map(([id, forenames, surname, dateOfBirth, sex, mother], i) =>
      birthRecord({
        id,
        entry: 140 + i,
        registered: addDays(dateOfBirth, 12),
        place: HALSWORTH,
        child: { ...nm(forenames, surname), dateOfBirth, sex },
        mother: { ...nm(mother, surname), birthplace: 'Halsworth', occupation: 'Teacher' },
      }),
    ),
    birthRecord({
      id: 999999077,
      entry: 88,
      registered: '2017-03-20',
      place: CWM_ARAN,
      child: { ...nm('', 'Penhaligon'), dateOfBirth: '2017-03-12', sex: 'Male' },
      mother: { ...nm('Tamsin', 'Penhaligon'), birthplace: 'Truro', occupation: 'Potter' },
      more: { child: { forenames: null } },
    }),
    birthRecord({
      id: 999999062,
      entry: 21,
      registered: '2016-02-01',
      place: CWM_ARAN,
      child: { ...nm('Niamh Orla', "O'Donoghue"), dateOfBirth: '2016-01-17', sex: 'Female' },
      mother: { ...nm('Bronagh', "O'Donoghue"), birthplace: 'Cork, Ireland', occupation: 'Midwife', maidenSurname: 'Keane' },
      father: { ...nm('Padraig', "O'Donoghue"), birthplace: 'Llanfedw', occupation: 'Civil engineer' },
    }),
  ];
}

// ---------------------------------------------------------------------------
// Deaths
// ---------------------------------------------------------------------------

interface DeathSpec {
  id: number;
  entry: number;
  registered: string;
  place: Place;
  deceased: Name & {
    sex: 'Male' | 'Female';
    dateOfBirth: string | null;
    dateOfDeath: string;
    ageAtDeath: string;
    birthplace: string;
    address: string;
    occupation?: string;
    retired?: boolean;
    maidenSurname?: string;
    causeOfDeath: string;
    relationshipToPartner?: string;
  };
  informant: Name & { qualification: string; address: string };
  partner?: { name: string; occupation: string; retired: boolean };
  blocked?: boolean;
  more?: Data;
}

function deathRecord(s: DeathSpec): Data {
  const record = merge(blank(death.fields), {
    id: s.id,
    date: s.registered,
    entryNumber: s.entry,
    deceased: { ...s.deceased, deathplace: at(s.place, s.place.hospital), certifiedBy: s.place.doctor },
    registrar: {
      signature: s.place.registrar,
      designation: 'Registrar',
      subdistrict: s.place.subdistrict,
      district: s.place.district,
      administrativeArea: s.place.area,
    },
    informant: { ...s.informant, signature: signed(s.informant) },
    partner: s.partner,
    status: { blocked: s.blocked ?? false, correction: 'None', marginalNote: 'None', onAuthorityOfRegistrarGeneral: false },
  });
  return merge(record, s.more ?? {});
}

function deaths(): Data[] {
  const full = deathRecord({
    id: 123456789,
    entry: 502,
    registered: '2009-11-25',
    place: KESTLEWICK,
    deceased: {
      ...nm('Margery Elspeth', 'THORNE'),
      sex: 'Female',
      dateOfBirth: '1927-03-03',
      dateOfDeath: '2009-11-21',
      ageAtDeath: '82 years',
      birthplace: 'Aldbury St Giles',
      address: at(KESTLEWICK, '3 Quarry Lane'),
      occupation: 'School secretary',
      retired: true,
      maidenSurname: 'CALDWELL',
      causeOfDeath: 'Congestive cardiac failure',
      relationshipToPartner: 'Widow of',
    },
    informant: { ...nm('Patricia Anne', 'HOLBROOK'), qualification: 'Daughter, present at the death', address: at(HALSWORTH, '19 Moorgate Road') },
    partner: { name: 'Leonard Arthur THORNE', occupation: 'Railway signalman', retired: true },
    more: {
      deceased: {
        prefix: 'Mrs',
        suffix: 'MBE',
        dateOfDeathQualifier: 'Found dead on',
        aliases: [
          { type: 'formerly known as', prefix: 'Miss', forenames: 'Margery Elspeth', surname: 'CALDWELL', suffix: 'MBE' },
          { type: 'otherwise', prefix: 'Mrs', forenames: 'Peggy', surname: 'THORNE', suffix: 'MBE' },
        ],
      },
      mother: { name: 'Ada Winifred CALDWELL', occupation: 'Seamstress' },
      father: { name: 'Frederick CALDWELL', occupation: 'Coal merchant' },
      coroner: { name: KESTLEWICK.coroner, designation: 'Senior Coroner', area: 'Aldershire' },
      inquestDate: '2010-02-16',
      status: { onAuthorityOfRegistrarGeneral: true },
    },
  });

  const hargreaves = (id: number, entry: number, forenames: string, dateOfBirth: string, age: string, street: string, informant: Name) =>
    deathRecord({
      id,
      entry,
      registered: '2011-11-08',
      place: HALSWORTH,
      deceased: {
        ...nm(forenames, 'HARGREAVES'),
        sex: 'Female',
        dateOfBirth,
        dateOfDeath: '2011-11-05',
        ageAtDeath: age,
        birthplace: 'Halsworth',
        address: at(HALSWORTH, street),
        occupation: 'Retired mill worker',
        retired: true,
        causeOfDeath: 'Pneumonia',
      },
      informant: { ...informant, qualification: 'Son', address: at(HALSWORTH, street) },
    });

  const gaskell = {
    place: PENNOCK,
    deceased: {
      ...nm('Albert Henry', 'GASKELL'),
      sex: 'Male' as const,
      dateOfBirth: '1948-12-01',
      dateOfDeath: '2013-01-28',
      ageAtDeath: '64 years',
      birthplace: 'Saltings',
      address: at(PENNOCK, '2 Harbour Cottages'),
      occupation: 'Boat builder',
      retired: false,
      causeOfDeath: 'Pending further inquiry',
    },
    informant: { ...nm('Janet', 'GASKELL'), qualification: 'Widow', address: at(PENNOCK, '2 Harbour Cottages') },
    partner: { name: 'Janet GASKELL', occupation: 'Harbour office clerk', retired: false },
  };

  return [
    full,
    hargreaves(999999001, 311, 'Margaret Ann', '1929-04-17', '82 years', '14 Weavers Row', nm('Keith', 'HARGREAVES')),
    hargreaves(999999002, 312, 'Margaret Joan', '1935-09-30', '76 years', '6 Tenter Street', nm('Alan', 'HARGREAVES')),
    hargreaves(999999003, 315, 'Margaret Elsie', '1921-01-08', '90 years', 'Flat 2, Millbrook Court', nm('Derek', 'HARGREAVES')),
    deathRecord({
      id: 999999010,
      entry: 640,
      registered: '2012-12-04',
      place: KESTLEWICK,
      deceased: {
        ...nm('Walter Ernest', 'PRIDDY'),
        sex: 'Male',
        dateOfBirth: '1930-06-14',
        dateOfDeath: '2012-12-01',
        ageAtDeath: '82 years',
        birthplace: 'Kestlewick',
        address: at(KESTLEWICK, '40 Chantry Road'),
        occupation: 'Postman',
        retired: true,
        causeOfDeath: 'Carcinoma of the prostate',
        relationshipToPartner: 'Husband of',
      },
      informant: { ...nm('Irene', 'PRIDDY'), qualification: 'Widow', address: at(KESTLEWICK, '40 Chantry Road') },
      partner: { name: 'Irene PRIDDY', occupation: 'Dinner lady', retired: true },
    }),
    deathRecord({
      id: 999999020,
      entry: 227,
      registered: '2012-04-20',
      place: HALSWORTH,
      blocked: true,
      deceased: {
        ...nm('Cecil Raymond', 'MOWBRAY'),
        sex: 'Male',
        dateOfBirth: '1944-07-22',
        dateOfDeath: '2012-04-18',
        ageAtDeath: '67 years',
        birthplace: 'Brindle Cross',
        address: at(HALSWORTH, '8 Cobden Terrace'),
        occupation: 'Bank manager',
        retired: true,
        causeOfDeath: 'Myocardial infarction',
      },
      informant: { ...nm('Paul', 'MOWBRAY'), qualification: 'Nephew', address: at(KESTLEWICK, '51 Fenwick Drive') },
    }),
    deathRecord({
      id: 999999030,
      entry: 488,
      registered: '2010-10-05',
      place: PENNOCK,
      deceased: {
        ...nm('Dorothy May', 'FENWICK'),
        sex: 'Female',
        dateOfBirth: '1932-05-05',
        dateOfDeath: '2010-10-02',
        ageAtDeath: '78 years',
        birthplace: 'Lindmoor',
        address: at(PENNOCK, '27 Esplanade'),
        occupation: 'Hotel proprietor',
        retired: true,
        maidenSurname: 'TREGASKIS',
        causeOfDeath: 'Cerebrovascular accident',
        relationshipToPartner: 'Widow of',
      },
      informant: { ...nm('Susan', 'ROWE'), qualification: 'Daughter', address: at(PENNOCK, '3 Gull Rise') },
      more: { status: { correction: 'Clerical: place of birth corrected' } },
    }),
    ...chain(
      deathRecord({
        id: 999999040,
        entry: 61,
        registered: '2013-02-01',
        ...gaskell,
        more: { status: { marginalNote: 'Death re-registered after inquest' } },
      }),
      deathRecord({
        id: 999999041,
        entry: 203,
        registered: '2013-06-19',
        ...gaskell,
        deceased: { ...gaskell.deceased, causeOfDeath: 'Drowning; accident' },
        more: {
          coroner: { name: PENNOCK.coroner, designation: 'Area Coroner', area: 'Lindmoor' },
          inquestDate: '2013-06-12',
          status: { onAuthorityOfRegistrarGeneral: true },
        },
      }),
    ),
    deathRecord({
      id: 999999050,
      entry: 133,
      registered: '2015-03-16',
      place: PENNOCK,
      deceased: {
        ...nm('Øyvind Pål', 'BJØRNSTAD'),
        sex: 'Male',
        dateOfBirth: '1951-10-19',
        dateOfDeath: '2015-03-11',
        ageAtDeath: '63 years',
        birthplace: 'Ålesund, Norway',
        address: at(PENNOCK, 'Flat 4, Quay House'),
        occupation: 'Ship’s engineer',
        retired: false,
        causeOfDeath: 'Pulmonary embolism',
        relationshipToPartner: 'Husband of',
      },
      informant: { ...nm('Solveig', 'BJØRNSTAD'), qualification: 'Widow', address: at(PENNOCK, 'Flat 4, Quay House') },
      partner: { name: 'Solveig BJØRNSTAD', occupation: 'Nurse', retired: false },
    }),
    deathRecord({
      id: 999999051,
      entry: 377,
      registered: '2018-07-09',
      place: KESTLEWICK,
      deceased: {
        ...nm('Sarah-Jane', 'HOLLOWAY-PRICE'),
        sex: 'Female',
        dateOfBirth: '1969-02-25',
        dateOfDeath: '2018-07-04',
        ageAtDeath: '49 years',
        birthplace: 'Halsworth',
        address: at(KESTLEWICK, '12 Orchard Way'),
        occupation: 'Veterinary surgeon',
        retired: false,
        maidenSurname: 'HOLLOWAY',
        causeOfDeath: 'Metastatic carcinoma of the breast',
        relationshipToPartner: 'Wife of',
      },
      informant: { ...nm('Marcus', 'HOLLOWAY-PRICE'), qualification: 'Widower', address: at(KESTLEWICK, '12 Orchard Way') },
      partner: { name: 'Marcus HOLLOWAY-PRICE', occupation: 'Lecturer', retired: false },
    }),
    deathRecord({
      id: 999999052,
      entry: 70,
      registered: '2011-02-17',
      place: CWM_ARAN,
      deceased: {
        ...nm('Declan Patrick', "O'ROURKE"),
        sex: 'Male',
        dateOfBirth: '1940-03-17',
        dateOfDeath: '2011-02-14',
        ageAtDeath: '70 years',
        birthplace: 'Sligo, Ireland',
        address: at(CWM_ARAN, 'Ty Gwyn, Heol y Bryn'),
        occupation: 'Quarryman',
        retired: true,
        causeOfDeath: 'Chronic obstructive pulmonary disease',
      },
      informant: { ...nm('Bernadette', 'LLOYD'), qualification: 'Daughter', address: at(CWM_ARAN, '5 Stryd Fawr') },
    }),
    deathRecord({
      id: 999999060,
      entry: 255,
      registered: '2016-05-27',
      place: HALSWORTH,
      deceased: {
        ...nm('Thomas', 'ELLERBY'),
        sex: 'Male',
        dateOfBirth: '2016-05-23',
        dateOfDeath: '2016-05-23',
        ageAtDeath: '4 hours',
        birthplace: 'Halsworth',
        address: at(HALSWORTH, '22 Beech Grove'),
        causeOfDeath: 'Extreme prematurity',
      },
      informant: { ...nm('Rebecca', 'ELLERBY'), qualification: 'Mother', address: at(HALSWORTH, '22 Beech Grove') },
      more: {
        mother: { name: 'Rebecca ELLERBY', occupation: 'Florist' },
        father: { name: 'Simon ELLERBY', occupation: 'Warehouse supervisor' },
      },
    }),
    deathRecord({
      id: 999999061,
      entry: 91,
      registered: '2017-03-30',
      place: PENNOCK,
      deceased: {
        ...nm('Edwin', 'CARLYLE'),
        sex: 'Male',
        dateOfBirth: null,
        dateOfDeath: '2017-02-09',
        ageAtDeath: 'About 75 years',
        birthplace: 'Not known',
        address: 'No fixed abode',
        causeOfDeath: 'Hypothermia',
      },
      informant: { ...nm('Anne', 'ROSEWARNE'), qualification: 'Coroner', address: 'Coroner’s Office, Lindmoor' },
      more: {
        deceased: { dateOfDeathQualifier: 'Found dead on' },
        coroner: { name: PENNOCK.coroner, designation: 'Senior Coroner', area: 'Lindmoor' },
        inquestDate: '2017-03-28',
      },
    }),
  ];
}

// ---------------------------------------------------------------------------
// Marriages
// ---------------------------------------------------------------------------

interface Spouse extends Name {
  age: number;
  occupation: string;
  address: string;
  condition: string;
  father: Name & { occupation: string };
}

interface MarriageSpec {
  id: number;
  entry: number;
  date: string;
  place: Place;
  venue: { short: string; address: string; parish?: string };
  /** Signature and designation of whoever solemnised the marriage. */
  minister: [string, string];
  groom: Spouse;
  bride: Spouse;
  witnesses: [Name, Name];
  blocked?: boolean;
  more?: Data;
}

function marriageRecord(s: MarriageSpec): Data {
  const spouse = ({ father: _, ...p }: Spouse) => ({ ...p, retired: false, signature: signed(p), signatureIsMark: false });
  const father = (f: Spouse['father']) => ({ ...f, retired: false, deceased: false });
  const witness = (w: Name) => ({ signature: signed(w), signatureIsMark: false });
  const record = merge(blank(marriage.fields), {
    id: s.id,
    entryNumber: s.entry,
    dateOfMarriage: s.date,
    placeOfMarriage: s.venue,
    registrar: {
      signature: s.place.registrar,
      designation: 'Registrar',
      superintendentSignature: s.place.superintendent,
      superintendentDesignation: 'Superintendent Registrar',
      district: s.place.district,
      administrativeArea: s.place.area,
    },
    groom: spouse(s.groom),
    bride: spouse(s.bride),
    fatherOfGroom: father(s.groom.father),
    fatherOfBride: father(s.bride.father),
    witness1: witness(s.witnesses[0]),
    witness2: witness(s.witnesses[1]),
    minister1: { signature: s.minister[0], designation: s.minister[1] },
    status: { blocked: s.blocked ?? false, marginalNote: 'None' },
  });
  return merge(record, s.more ?? {});
}

function marriages(): Data[] {
  const stMichael = (place: Place) => ({
    short: `St Michael's Church, ${place.town}`,
    address: `St Michael's Church, Church Street, ${place.town}`,
    parish: `St Michael, ${place.town}`,
  });
  const registerOffice = (place: Place) => ({ short: `${place.district} Register Office`, address: `Register Office, Town Hall, ${place.town}` });

  const witnesses12 = [
    nm('Eleri', 'Vaughan'), nm('Joseph', 'Kingsley'), nm('Agnes', 'Merridew'), nm('Rhys', 'Pugh'),
    nm('Beatrice', 'Lorimer'), nm('Conor', 'Mulvey'), nm('Hetty', 'Sandford'), nm('Iain', 'Buchanan'),
    nm('Yasmin', 'Chaudhry'), nm('Oscar', 'Penrose'), nm('Tilly', 'Ashcroft'), nm('Wilfred', 'Dunmore'),
  ];
  const full = marriageRecord({
    id: 123456789,
    entry: 48,
    date: '2008-08-08',
    place: KESTLEWICK,
    venue: stMichael(KESTLEWICK),
    minister: ['Revd C. Haworth', 'Vicar'],
    groom: {
      ...nm('Daniel Owen', 'MERRIDEW'),
      age: 34,
      occupation: 'Chartered accountant',
      address: at(KESTLEWICK, '15 Abbey Walk'),
      condition: 'Divorced',
      father: { ...nm('Owen Richard', 'MERRIDEW'), occupation: 'Dairy farmer' },
    },
    bride: {
      ...nm('Sophie Catherine', 'KINGSLEY'),
      age: 31,
      occupation: 'Occupational therapist',
      address: at(KESTLEWICK, '2 Mill Race'),
      condition: 'Widowed',
      father: { ...nm('Joseph', 'LATIMER'), occupation: 'Printer' },
    },
    witnesses: [witnesses12[0], witnesses12[1]],
    more: {
      groom: {
        prefix: 'Mr',
        suffix: 'Jr',
        aliases: [
          { prefix: 'Mr', forenames: 'Dan', surname: 'MERRIDEW', suffix: 'Jr' },
          { prefix: 'Mr', forenames: 'Daniel Owen', surname: 'MERRIDEW-BOYCE', suffix: 'Jr' },
        ],
      },
      bride: {
        prefix: 'Mrs',
        suffix: 'OBE',
        aliases: [
          { prefix: 'Miss', forenames: 'Sophie Catherine', surname: 'LATIMER', suffix: 'OBE' },
          { prefix: 'Mrs', forenames: 'Sophie', surname: 'KINGSLEY', suffix: 'OBE' },
        ],
      },
      fatherOfGroom: { retired: true, designation: 'Father', deceased: false },
      fatherOfBride: { retired: true, designation: 'Adoptive father', deceased: true },
      ...Object.fromEntries(
        witnesses12.map((w, i) => [`witness${i + 1}`, { signature: signed(w), signatureIsMark: i === 3 }]),
      ),
      minister2: { signature: 'Revd P. Okonkwo', designation: 'Assistant curate' },
    },
  });

  const hughes = (id: number, entry: number, forenames: string, bride: Spouse, groomFather: string, street: string, age: number) =>
    marriageRecord({
      id,
      entry,
      date: '2015-06-20',
      place: CWM_ARAN,
      venue: id === 999999002 ? registerOffice(CWM_ARAN) : { short: 'Capel Bethel, Llanfedw', address: 'Capel Bethel, Heol y Capel, Llanfedw' },
      minister: id === 999999002 ? [CWM_ARAN.registrar, 'Registrar'] : ['Parch. D. Morgan', 'Minister'],
      groom: {
        ...nm(forenames, 'HUGHES'),
        age,
        occupation: 'Mechanic',
        address: at(CWM_ARAN, street),
        condition: 'Single',
        father: { ...nm(groomFather, 'HUGHES'), occupation: 'Lorry driver' },
      },
      bride,
      witnesses: [nm('Gwen', 'Hughes'), nm(bride.father.forenames, bride.father.surname)],
    });
  const bride = (forenames: string, surname: string, age: number, occupation: string, street: string, father: string) => ({
    ...nm(forenames, surname),
    age,
    occupation,
    address: at(CWM_ARAN, street),
    condition: 'Single',
    father: { ...nm(father, surname), occupation: 'Retired' },
  });

  const barraclough = {
    date: '2009-08-15',
    place: HALSWORTH,
    venue: registerOffice(HALSWORTH),
    minister: [HALSWORTH.registrar, 'Registrar'] as [string, string],
    groom: {
      ...nm('Philip Ronald', 'BARRACLOUGH'),
      age: 41,
      occupation: 'Heating engineer',
      address: at(HALSWORTH, '9 Canal Side'),
      condition: 'Divorced',
      father: { ...nm('Ronald', 'BARRACLOUGH'), occupation: 'Foundry worker' },
    },
    bride: {
      ...nm('Tracey Louise', 'HIGGINBOTTOM'),
      age: 38,
      occupation: 'Receptionist',
      address: at(HALSWORTH, '9 Canal Side'),
      condition: 'Single',
      father: { ...nm('Brian', 'HIGGINBOTTOM'), occupation: 'Postman' },
    },
    witnesses: [nm('Gary', 'Barraclough'), nm('Michelle', 'Doyle')] as [Name, Name],
  };

  return [
    full,
    hughes(999999001, 71, 'Thomas Rhys', bride('Ffion', 'PARRY', 27, 'Nurse', '3 Maes yr Eglwys', 'Emrys'), 'Dewi', '11 Heol Aran', 29),
    hughes(999999002, 72, 'Thomas Alun', bride('Sian Elin', 'JONES', 24, 'Hairdresser', '40 Stryd y Parc', 'Gareth'), 'Alun', 'Pen-y-Bryn Farm', 26),
    hughes(999999003, 73, 'Thomas Gareth', bride('Catrin', 'WILLIAMS', 30, 'Solicitor', '1 Tan y Castell', 'Iolo'), 'Meirion', '7 Rhes Newydd', 32),
    marriageRecord({
      id: 999999010,
      entry: 119,
      date: '2012-09-01',
      place: KESTLEWICK,
      venue: stMichael(KESTLEWICK),
      minister: ['Revd C. Haworth', 'Vicar'],
      groom: {
        ...nm('Matthew John', 'CORBETT'),
        age: 29,
        occupation: 'Software developer',
        address: at(KESTLEWICK, '31 Foundry Street'),
        condition: 'Single',
        father: { ...nm('Stephen', 'CORBETT'), occupation: 'Teacher' },
      },
      bride: {
        ...nm('Lucy Anne', 'FAIRWEATHER'),
        age: 28,
        occupation: 'Graphic designer',
        address: at(KESTLEWICK, '31 Foundry Street'),
        condition: 'Single',
        father: { ...nm('Robert', 'FAIRWEATHER'), occupation: 'Fire officer' },
      },
      witnesses: [nm('Adam', 'Corbett'), nm('Jessica', 'Fairweather')],
    }),
    marriageRecord({
      id: 999999020,
      entry: 35,
      date: '2006-04-29',
      place: PENNOCK,
      blocked: true,
      venue: registerOffice(PENNOCK),
      minister: [PENNOCK.registrar, 'Registrar'],
      groom: {
        ...nm('Nathaniel', 'VOSPER'),
        age: 36,
        occupation: 'Harbour pilot',
        address: at(PENNOCK, 'Lookout Cottage, Cliff Road'),
        condition: 'Single',
        father: { ...nm('Jory', 'VOSPER'), occupation: 'Fisherman' },
      },
      bride: {
        ...nm('Clara Jane', 'STANHOPE'),
        age: 33,
        occupation: 'Journalist',
        address: at(PENNOCK, 'Lookout Cottage, Cliff Road'),
        condition: 'Single',
        father: { ...nm('Edmund', 'STANHOPE'), occupation: 'Barrister' },
      },
      witnesses: [nm('Tamsin', 'Vosper'), nm('Hugh', 'Stanhope')],
    }),
    ...chain(
      marriageRecord({ id: 999999040, entry: 210, ...barraclough, more: { status: { marginalNote: 'Marriage re-registered' } } }),
      marriageRecord({
        id: 999999041,
        entry: 3,
        ...barraclough,
        bride: { ...barraclough.bride, age: 39 },
        more: { status: { marginalNote: "Re-registration: bride's age corrected" } },
      }),
    ),
    marriageRecord({
      id: 999999050,
      entry: 152,
      date: '2017-05-13',
      place: PENNOCK,
      venue: { short: 'The Old Lifeboat House, Pennock Bay', address: 'The Old Lifeboat House, Slipway Road, Pennock Bay' },
      minister: [PENNOCK.registrar, 'Registrar'],
      groom: {
        ...nm('Rhodri', 'PRYCE'),
        age: 35,
        occupation: 'Sound engineer',
        address: at(PENNOCK, '6 Chapel Steps'),
        condition: 'Single',
        father: { ...nm('Emlyn', 'PRYCE'), occupation: 'Minister of religion' },
      },
      bride: {
        ...nm('Chloë Adèle', 'LEFÈVRE'),
        age: 32,
        occupation: 'Pastry chef',
        address: at(PENNOCK, '6 Chapel Steps'),
        condition: 'Single',
        father: { ...nm('Jérôme', 'LEFÈVRE'), occupation: 'Boulanger' },
      },
      witnesses: [nm('Noémie', 'Lefèvre'), nm('Gethin', 'Pryce')],
    }),
    marriageRecord({
      id: 999999051,
      entry: 187,
      date: '2011-07-23',
      place: HALSWORTH,
      venue: { short: 'Brindle Hall', address: 'Brindle Hall, Hall Lane, Brindle Cross' },
      minister: [HALSWORTH.registrar, 'Registrar'],
      groom: {
        ...nm('Jean-Luc', 'ASHBY-GRANT'),
        age: 30,
        occupation: 'Architect',
        address: at(HALSWORTH, '18 Rookery Lane'),
        condition: 'Single',
        father: { ...nm('Malcolm', 'ASHBY-GRANT'), occupation: 'Surveyor' },
      },
      bride: {
        ...nm('Rachel', 'OKAFOR'),
        age: 29,
        occupation: 'Pharmacist',
        address: at(HALSWORTH, '18 Rookery Lane'),
        condition: 'Single',
        father: { ...nm('Chinedu', 'OKAFOR'), occupation: 'Civil servant' },
      },
      witnesses: [nm('Toby', 'Ashby-Grant'), nm('Adaeze', 'Okafor')],
    }),
    marriageRecord({
      id: 999999052,
      entry: 64,
      date: '2013-10-12',
      place: CWM_ARAN,
      venue: { short: "St Non's Catholic Church, Llanfedw", address: "St Non's Catholic Church, Ffordd yr Orsaf, Llanfedw" },
      minister: ['Fr T. Mahoney', 'Priest'],
      groom: {
        ...nm('Gareth Wyn', 'EVANS'),
        age: 27,
        occupation: 'Paramedic',
        address: at(CWM_ARAN, '2 Bryn Teg'),
        condition: 'Single',
        father: { ...nm('Wyn', 'EVANS'), occupation: 'Bus driver' },
      },
      bride: {
        ...nm('Siobhan Mary', "O'DWYER"),
        age: 26,
        occupation: 'Primary school teacher',
        address: at(CWM_ARAN, '2 Bryn Teg'),
        condition: 'Single',
        father: { ...nm('Cormac', "O'DWYER"), occupation: 'Publican' },
      },
      witnesses: [nm('Aoife', "O'Dwyer"), nm('Dafydd', 'Evans')],
    }),
  ];
}

// ---------------------------------------------------------------------------
// Civil partnerships
// ---------------------------------------------------------------------------

interface Partner extends Name {
  dob: string;
  sex: 'Male' | 'Female';
  occupation: string;
  address: string;
  condition?: string;
  father: Name & { occupation: string };
  mother: Name & { occupation: string };
}

interface PartnershipSpec {
  id: number;
  date: string;
  place: Place;
  venue: { short: string; address: string };
  partner1: Partner;
  partner2: Partner;
  witnesses: [Name, Name];
  blocked?: boolean;
  more?: Data;
}

function partnershipRecord(s: PartnershipSpec): Data {
  const partner = ({ father: _f, mother: _m, ...p }: Partner) => ({
    ...p,
    condition: p.condition ?? 'Single',
    retired: false,
    signature: signed(p),
  });
  const parent = (p: Name & { occupation: string }, designation: string) => ({ ...p, retired: false, designation, deceased: false });
  const witness = (w: Name) => ({ forename: w.forenames, surname: w.surname });
  const record = merge(blank(partnership.fields), {
    id: s.id,
    dateOfPartnership: s.date,
    placeOfPartnership: s.venue,
    registrar: { signature: s.place.registrar },
    partner1: partner(s.partner1),
    partner2: partner(s.partner2),
    fatherOfPartner1: parent(s.partner1.father, 'Father'),
    motherOfPartner1: parent(s.partner1.mother, 'Mother'),
    fatherOfPartner2: parent(s.partner2.father, 'Father'),
    motherOfPartner2: parent(s.partner2.mother, 'Mother'),
    witness1: witness(s.witnesses[0]),
    witness2: witness(s.witnesses[1]),
    status: { blocked: s.blocked ?? false, marginalNote: 'None' },
  });
  return merge(record, s.more ?? {});
}

function partnerships(): Data[] {
  const townHall = (place: Place) => ({ short: `${place.town} Town Hall`, address: `Council Chamber, Town Hall, Market Place, ${place.town}` });
  const parents = (surname: string, father: string, fatherJob: string, mother: string, motherJob: string) => ({
    father: { ...nm(father, surname), occupation: fatherJob },
    mother: { ...nm(mother, surname), occupation: motherJob },
  });

  const full = partnershipRecord({
    id: 123456789,
    date: '2008-08-08',
    place: KESTLEWICK,
    venue: { short: 'Kestlewick Assembly Rooms', address: 'The Assembly Rooms, 1 Guildhall Square, Kestlewick' },
    partner1: {
      ...nm('Oliver James', 'KINGSLEY'),
      dob: '1972-01-26',
      sex: 'Male',
      occupation: 'Hospital consultant',
      address: at(KESTLEWICK, 'The Coach House, Ferry Lane'),
      ...parents('KINGSLEY', 'Geoffrey', 'Vet', 'Margaret', 'Magistrate'),
    },
    partner2: {
      ...nm('Sebastian Luke', 'ORMEROD'),
      dob: '1975-07-04',
      sex: 'Male',
      occupation: 'Theatre director',
      address: at(KESTLEWICK, 'The Coach House, Ferry Lane'),
      condition: 'Surviving civil partner',
      ...parents('ORMEROD', 'Clive', 'Bookseller', 'Jean', 'Piano teacher'),
    },
    witnesses: [nm('Harriet', 'Kingsley'), nm('Tobias', 'Fenn')],
    more: {
      partner1: {
        prefix: 'Dr',
        suffix: 'FRCS',
        aliases: [
          { prefix: 'Mr', forenames: 'Ollie', surname: 'KINGSLEY', suffix: 'FRCS' },
          { prefix: 'Dr', forenames: 'Oliver', surname: 'KINGSLEY-WARD', suffix: 'FRCS' },
        ],
      },
      partner2: {
        prefix: 'Mr',
        suffix: 'MBE',
        aliases: [
          { prefix: 'Mr', forenames: 'Seb', surname: 'ORMEROD', suffix: 'MBE' },
          { prefix: 'Mr', forenames: 'Sebastian Luke', surname: 'HARTIGAN', suffix: 'MBE' },
        ],
      },
      fatherOfPartner1: { retired: true, deceased: true },
      motherOfPartner1: { designation: 'Stepmother', retired: true },
      fatherOfPartner2: { designation: 'Adoptive father', retired: true },
      motherOfPartner2: { designation: 'Adoptive mother' },
    },
  });

  const bradshaw = (id: number, forenames: string, partner2: Name, p1Dob: string, p2Dob: string, street: string, p2parents: ReturnType<typeof parents>) =>
    partnershipRecord({
      id,
      date: '2014-09-27',
      place: HALSWORTH,
      venue: townHall(HALSWORTH),
      partner1: {
        ...nm(forenames, 'BRADSHAW'),
        dob: p1Dob,
        sex: 'Male',
        occupation: 'Civil servant',
        address: at(HALSWORTH, street),
        ...parents('BRADSHAW', 'Neil', 'Engineer', 'Christine', 'Nurse'),
      },
      partner2: {
        ...partner2,
        dob: p2Dob,
        sex: 'Male',
        occupation: 'Chef',
        address: at(HALSWORTH, street),
        ...p2parents,
      },
      witnesses: [nm('Laura', 'Bradshaw'), nm('Kieran', 'Walsh')],
    });

  const quayle = {
    date: '2010-05-22',
    place: PENNOCK,
    venue: townHall(PENNOCK),
    partner1: {
      ...nm('Gillian Frances', 'QUAYLE'),
      dob: '1966-11-11',
      sex: 'Female' as const,
      occupation: 'Librarian',
      address: at(PENNOCK, 'Rock House, Tidal Lane'),
      ...parents('QUAYLE', 'Norman', 'Lighthouse keeper', 'Phyllis', 'Postmistress'),
    },
    partner2: {
      ...nm('Morwenna', 'TREMAYNE'),
      dob: '1969-02-02',
      sex: 'Female' as const,
      occupation: 'Potter',
      address: at(PENNOCK, 'Rock House, Tidal Lane'),
      ...parents('TREMAYNE', 'Jago', 'Tin miner', 'Kerensa', 'Weaver'),
    },
    witnesses: [nm('Elowen', 'Tremayne'), nm('Brian', 'Quayle')] as [Name, Name],
  };

  return [
    full,
    bradshaw(999999001, 'James Edward', nm('Connor', 'MCBRIDE'), '1984-03-12', '1986-06-01', '4 Ashfield Mews', parents('MCBRIDE', 'Sean', 'Builder', 'Maureen', 'Cleaner')),
    bradshaw(999999002, 'James Oliver', nm('Imran', 'SHAH'), '1979-12-20', '1981-04-09', '77 Peel Street', parents('SHAH', 'Tariq', 'Shopkeeper', 'Nasreen', 'Teaching assistant')),
    bradshaw(999999003, 'James Patrick', nm('Liam', 'FOSTER'), '1990-08-08', '1989-10-30', '2 Lock Keepers Way', parents('FOSTER', 'Martin', 'Plumber', 'Angela', 'Office manager')),
    partnershipRecord({
      id: 999999010,
      date: '2012-06-16',
      place: KESTLEWICK,
      venue: townHall(KESTLEWICK),
      partner1: {
        ...nm('Helen Margaret', 'STOCKDALE'),
        dob: '1971-05-30',
        sex: 'Female',
        occupation: 'Head teacher',
        address: at(KESTLEWICK, '23 Glebe Road'),
        ...parents('STOCKDALE', 'Roy', 'Steelworker', 'Brenda', 'Dinner lady'),
      },
      partner2: {
        ...nm('Ruth Elizabeth', 'AINSWORTH'),
        dob: '1973-09-14',
        sex: 'Female',
        occupation: 'Social worker',
        address: at(KESTLEWICK, '23 Glebe Road'),
        ...parents('AINSWORTH', 'Kenneth', 'Insurance clerk', 'Valerie', 'Typist'),
      },
      witnesses: [nm('Sally', 'Stockdale'), nm('Mark', 'Ainsworth')],
    }),
    partnershipRecord({
      id: 999999020,
      date: '2007-03-03',
      place: HALSWORTH,
      blocked: true,
      venue: townHall(HALSWORTH),
      partner1: {
        ...nm('Marcus Edward', 'PENHALLOW'),
        dob: '1960-12-24',
        sex: 'Male',
        occupation: 'Diplomat',
        address: at(HALSWORTH, 'Elm Lodge, Vicarage Lane'),
        ...parents('PENHALLOW', 'Edward', 'Naval officer', 'Rosemary', 'Artist'),
      },
      partner2: {
        ...nm('Anthony', 'GREENHALGH'),
        dob: '1963-04-15',
        sex: 'Male',
        occupation: 'Museum curator',
        address: at(HALSWORTH, 'Elm Lodge, Vicarage Lane'),
        ...parents('GREENHALGH', 'Harold', 'Miner', 'Doris', 'Shop assistant'),
      },
      witnesses: [nm('Philippa', 'Penhallow'), nm('Graham', 'Greenhalgh')],
    }),
    ...chain(
      partnershipRecord({ id: 999999040, ...quayle, more: { status: { marginalNote: 'Partnership re-registered' } } }),
      partnershipRecord({
        id: 999999041,
        ...quayle,
        partner2: { ...quayle.partner2, occupation: 'Ceramic artist' },
        more: { status: { marginalNote: "Re-registration: partner 2's occupation corrected" } },
      }),
    ),
    partnershipRecord({
      id: 999999050,
      date: '2016-08-06',
      place: CWM_ARAN,
      venue: townHall(CWM_ARAN),
      partner1: {
        ...nm('Aled', 'ROBERTS'),
        dob: '1980-01-19',
        sex: 'Male',
        occupation: 'Harpist',
        address: at(CWM_ARAN, 'Hafod, Lôn Goed'),
        ...parents('ROBERTS', 'Iwan', 'Shepherd', 'Nia', 'Nurse'),
      },
      partner2: {
        ...nm('José Andrés', 'NÚÑEZ'),
        dob: '1982-11-03',
        sex: 'Male',
        occupation: 'Restaurateur',
        address: at(CWM_ARAN, 'Hafod, Lôn Goed'),
        ...parents('NÚÑEZ', 'Andrés', 'Fisherman', 'Begoña', 'Seamstress'),
      },
      witnesses: [nm('Mererid', 'Roberts'), nm('Inés', 'Núñez')],
    }),
    partnershipRecord({
      id: 999999051,
      date: '2015-02-14',
      place: KESTLEWICK,
      venue: { short: 'Kestlewick Assembly Rooms', address: 'The Assembly Rooms, 1 Guildhall Square, Kestlewick' },
      partner1: {
        ...nm('Mary-Claire', 'WESTON-HYDE'),
        dob: '1977-06-21',
        sex: 'Female',
        occupation: 'Barrister',
        address: at(KESTLEWICK, '5 Minster Yard'),
        ...parents('WESTON-HYDE', 'Julian', 'Judge', 'Penelope', 'Charity director'),
      },
      partner2: {
        ...nm('Grace', 'ADEYEMI'),
        dob: '1979-03-08',
        sex: 'Female',
        occupation: 'Radiographer',
        address: at(KESTLEWICK, '5 Minster Yard'),
        ...parents('ADEYEMI', 'Olusegun', 'Accountant', 'Funmilayo', 'Midwife'),
      },
      witnesses: [nm('Anne-Sophie', 'Weston-Hyde'), nm('Tunde', 'Adeyemi')],
    }),
    partnershipRecord({
      id: 999999052,
      date: '2018-11-10',
      place: PENNOCK,
      venue: townHall(PENNOCK),
      partner1: {
        ...nm('Karen Louise', 'MABBOTT'),
        dob: '1958-09-09',
        sex: 'Female',
        occupation: 'Retired police inspector',
        address: at(PENNOCK, '1 Coastguard Row'),
        condition: 'Previous civil partnership dissolved',
        ...parents('MABBOTT', 'Dennis', 'Docker', 'Sheila', 'Machinist'),
      },
      partner2: {
        ...nm('Fiona Kathleen', "D'ARCY"),
        dob: '1961-12-12',
        sex: 'Female',
        occupation: 'Yoga teacher',
        address: at(PENNOCK, '1 Coastguard Row'),
        ...parents("D'ARCY", 'Liam', 'Farmer', 'Bridget', 'Housekeeper'),
      },
      witnesses: [nm('Nuala', "D'Arcy"), nm('Stephen', 'Mabbott')],
    }),
  ];
}

// ---------------------------------------------------------------------------

/**
 * The mock records of a type described outside this file (its scenario file, in
 * `src/mock/scenarios/`): each scenario's record is made from the description (every field filled,
 * `src/generate/values.ts`), its first party named and dated as its search asks, then
 * overlaid with what the scenario says (`record`). One of them is id 123456789.
 */
export interface TypeScenarios {
  readonly type: string;
  readonly scenarios: readonly (Scenario & {
    readonly record?: Data;
    /** The id of the registration (in the same file) this one re-registered: the two are linked as a re-registration chain. */
    readonly replaces?: number;
  })[];
  /**
   * Where each verification parameter's value sits in a record, required ones apart, stated here
   * apart from the description so that a declaration pointing at the wrong field fails
   * (test/http/verification.test.ts).
   */
  readonly verificationSources?: {
    readonly required: Readonly<Record<string, string>>;
    readonly optional: Readonly<Record<string, string>>;
  };
}

const isTypeScenarios = (value: unknown): value is TypeScenarios =>
  isPlain(value) && typeof value.type === 'string' && Array.isArray(value.scenarios);

/** The TypeScenarios each file of a folder exports, one a file, in the order of the files' names. */
export async function readScenarioFiles(folder: URL): Promise<TypeScenarios[]> {
  return (await importFolder(folder)).map((module) => soleExport(module, isTypeScenarios, 'TypeScenarios'));
}

/**
 * The scenario files of the types this file has no hand-written records for, one a type: each
 * file in `src/mock/scenarios/` (`<type>.ts`, exporting its TypeScenarios), read from the folder.
 */
export const loadScenarioFiles = (): Promise<TypeScenarios[]> => readScenarioFiles(new URL('./scenarios/', import.meta.url));

/** The scenarios written here (the built-in types'): what each of their mock records is for and how to find it. */
export const scenarios: readonly Scenario[] = [...handWritten, ...closeMatchLevels];

/** The scenarios of a type: those written here, or those of its scenario file among `files`. */
export const scenariosOf = (type: string, files: readonly TypeScenarios[]): readonly Scenario[] => [
  ...[...handWritten, ...closeMatchLevels].filter((s) => s.type === type),
  ...files.filter((file) => file.type === type).flatMap((file) => file.scenarios),
];

const BUILT_IN: Readonly<Record<string, { readonly description: RecordDescription; readonly records: () => Data[] }>> = {
  birth: { description: birth, records: births },
  death: { description: death, records: deaths },
  marriage: { description: marriage, records: marriages },
  partnership: { description: partnership, records: partnerships },
};

/** Sets a dot path, making the groups on the way. */
function setPath(record: Data, path: string, value: unknown): void {
  const keys = path.split('.');
  let holder = record;
  for (const key of keys.slice(0, -1)) holder = (isPlain(holder[key]) ? holder[key] : (holder[key] = {})) as Data;
  holder[keys[keys.length - 1]] = value;
}

function describedRecords(description: RecordDescription, set: TypeScenarios): Data[] {
  const [party] = description.search.parties;
  const { dateParam } = description.search;
  const records = set.scenarios.map((scenario) => {
    // The scenario's own values first, so the dates that follow them (a registration after the birth) are made from them.
    const given = blank(description.fields);
    const { surname, forenames, [dateParam]: date } = scenario.search;
    if (surname !== undefined) setPath(given, party.surname, surname);
    if (forenames !== undefined) setPath(given, party.forenames, forenames);
    if (date !== undefined) setPath(given, party.dates[0], date);
    const record = merge(given, scenario.record ?? {});
    record.id = scenario.id;
    const random = Random.fromString(`lev-mock\u0000${set.type}\u0000${scenario.id}`);
    return fillFromDescription(description, record, random, VALUE_MAKERS, { lists: scenario.id === FULL_ID });
  });
  return chained(set, records);
}

/** The records of a scenario file with each chain its scenarios' `replaces` make linked, oldest first, in the file's order. */
function chained(set: TypeScenarios, records: Data[]): Data[] {
  const byId = new Map(records.map((record) => [record.id as number, record]));
  const next = new Map<number, number>();
  for (const { id, replaces } of set.scenarios) {
    if (replaces === undefined) continue;
    if (!byId.has(replaces)) throw new Error(`mock dataset: ${set.type} ${id} replaces ${replaces}, which its scenario file does not have`);
    if (!('previousRegistration' in byId.get(id)! && 'nextRegistration' in byId.get(id)!)) {
      throw new Error(`mock dataset: ${set.type} ${id} replaces ${replaces}, but the type has no links previousRegistration and nextRegistration`);
    }
    next.set(replaces, id);
  }
  const replacing = new Set(next.values());
  for (const first of set.scenarios.filter((s) => next.has(s.id) && !replacing.has(s.id))) {
    const ids = [first.id];
    while (next.has(ids[ids.length - 1])) ids.push(next.get(ids[ids.length - 1])!);
    chain(...ids.map((id) => byId.get(id)!)).forEach((record, i) => byId.set(ids[i], record));
  }
  return records.map((record) => byId.get(record.id as number)!);
}

/**
 * The mock records of each type described, by type, as the v1
 * views store them; a type without hand-written records here has them from its scenario file
 * (`more`). Each type's record 123456789 has every field filled: a field described after its
 * records were written is filled from the description. A fresh copy on every call.
 */
export function mockRecords(descriptions: readonly RecordDescription[], more: readonly TypeScenarios[] = []): Record<string, object[]> {
  const out: Record<string, object[]> = {};
  for (const description of descriptions) {
    const builtIn = BUILT_IN[description.name];
    const set = more.find((s) => s.type === description.name);
    const records = builtIn ? builtIn.records() : set ? describedRecords(description, set) : [];
    const full = records.find((record) => record.id === FULL_ID);
    if (full) fillFromDescription(description, full, Random.fromString(`lev-mock\u0000${description.name}`), VALUE_MAKERS, { lists: true });
    out[description.name] = records;
  }
  return structuredClone(out);
}
