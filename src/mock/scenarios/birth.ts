/**
 * The mock's births: what each record is for, how to find it, and the record as its register
 * entry reads, written whole (a field its entry does not give is unrecorded, not invented).
 * Births 999999070 to 999999083 are there for their close matches.
 */
import { addDays } from '../../match/dates.ts';
import { birth } from '../../records/types/birth.ts';
import { closeMatch, defineScenarios, recordOf } from '../dataset.ts';
import { CWM_ARAN, HALSWORTH, KESTLEWICK, type Name, PENNOCK, type Place, at, nm, signed } from '../places.ts';

type Data = { [key: string]: unknown };
type Parent = Name & { birthplace: string; occupation?: string };

interface BirthSpec {
  entry: number;
  registered: string;
  place: Place;
  child: Name & { dateOfBirth: string; sex: 'Male' | 'Female' };
  mother: Parent & { maidenSurname?: string; marriageSurname?: string };
  /** Omitted when the father was not named in the register. */
  father?: Parent;
  blocked?: boolean;
  more?: Data;
}

/** A registration by the mother (and the father, when named), every status note 'None' unless `more` says otherwise. */
function birthRecord(s: BirthSpec): Data {
  const named = (p: Parent) => ({
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
  const entry = {
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
      ...named(s.mother),
      maidenSurname: s.mother.maidenSurname ?? s.mother.surname,
      marriageSurname: s.mother.marriageSurname,
    },
    father: s.father ? { ...named(s.father), deceased: false } : undefined,
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
  };
  return recordOf(birth, entry, s.more ?? {});
}

const child = (forenames: string, surname: string, dateOfBirth: string, sex: 'Male' | 'Female') => ({
  ...nm(forenames, surname),
  dateOfBirth,
  sex,
});
const parent = (
  forenames: string,
  surname: string,
  birthplace: string,
  occupation?: string,
  maidenSurname?: string,
) => ({ ...nm(forenames, surname), birthplace, occupation, maidenSurname });

const MARSDEN = { surname: 'Marsden', forenames: 'George', dateOfBirth: '2010-03-14' };
const WHITCOMBE = { surname: 'Whitcombe', forenames: 'Isabelle', dateOfBirth: '2015-04-20' };
const RIDLEY = { surname: 'Ridley', forenames: 'Samuel', dateOfBirth: '2003-09-09' };

/** One of three Georges born on the same day. */
const marsden = (entry: number, forenames: string, mother: Name, father: Name & { occupation: string }, place: Place) =>
  birthRecord({
    entry,
    registered: '2010-04-06',
    place,
    child: child(forenames, 'Marsden', '2010-03-14', 'Male'),
    mother: { ...mother, birthplace: place.town },
    father: { ...father, birthplace: place.town },
  });
const whitcombe = { child: child('Isabelle Grace', 'Whitcombe', '2015-04-20', 'Female'), place: HALSWORTH };
const ridley = { child: child('Samuel Joseph', 'Ridley', '2003-09-09', 'Male'), place: PENNOCK };
const donna = parent('Donna', 'Ridley', 'Pennock Bay', 'Shop assistant');
const karl = parent('Karl', 'Jessop', 'Lindmoor', 'Fisherman');

/** Close matches through the weaker levels of evidence, each found first all the same. */
const CLOSE_MATCH_LEVELS = [
  [
    999999078,
    'Rebecca',
    'Halloran',
    '2012-06-18',
    'Female',
    'Maria',
    'Close match with a married surname: Fenwick for Halloran, the forenames and date exact',
    ['Fenwick', 'Rebecca', '2012-06-18'],
    ['different', 'exact', 'exact'],
  ],
  [
    999999079,
    'Sebastian',
    'Cuthbertson',
    '2005-10-13',
    'Male',
    'Jenna',
    'Close match with both names misspelt: Sebsatain Cuthbrestno for Sebastian Cuthbertson',
    ['Cuthbrestno', 'Sebsatain', '2005-10-13'],
    ['similar', 'two-edits', 'exact'],
  ],
  [
    999999080,
    'Tobias',
    'Wainwright',
    '2007-03-21',
    'Male',
    'Kirsty',
    'Close match with the date two digits out: 2007-08-24 for 2007-03-21',
    ['Wainwright', 'Tobias', '2007-08-24'],
    ['exact', 'exact', 'two-digits'],
  ],
  [
    999999081,
    'Imogen',
    'Castleford',
    '2011-04-16',
    'Female',
    'Laura',
    'Close match with a digit of the year out: 2001-04-16 for 2011-04-16',
    ['Castleford', 'Imogen', '2001-04-16'],
    ['exact', 'exact', 'year-digit'],
  ],
  [
    999999082,
    'Felicity',
    'Rowntree',
    '2006-05-29',
    'Female',
    'Abigail',
    'Close match with the date within a month: 2006-06-07 for 2006-05-29',
    ['Rowntree', 'Felicity', '2006-06-07'],
    ['exact', 'exact', 'within-month'],
  ],
  [
    999999083,
    'Oswin',
    'Ravenscroft',
    '1999-02-11',
    'Male',
    'Deborah',
    'Close match with a surname spelt a little alike: Ravensdale for Ravenscroft',
    ['Ravensdale', 'Oswin', '1999-02-11'],
    ['loosely-similar', 'exact', 'exact'],
  ],
] as const;

export const births = defineScenarios({
  type: 'birth',
  scenarios: [
    {
      id: 123456789,
      type: 'birth',
      shows: 'Every field filled, including a changed forename; a close match by a nickname and a digit out',
      search: { surname: 'Ashworth', forenames: 'Eleanor', dateOfBirth: '2008-08-08' },
      suggestion: closeMatch('dateOfBirth', ['Ashworth', 'Ellie', '2008-08-09'], ['exact', 'nickname', 'near-date']),
      record: birthRecord({
        entry: 214,
        registered: '2008-09-02',
        place: KESTLEWICK,
        child: child('Eleanor Rose', 'Ashworth', '2008-08-08', 'Female'),
        mother: {
          ...parent('Catherine Louise', 'Ashworth', 'Aldbury St Giles', 'Pharmacist', 'Pennington'),
          marriageSurname: 'Doyle',
        },
        father: parent('Jonathan Mark', 'Ashworth', 'Brindle Cross', 'Quantity surveyor'),
        more: {
          registrar: {
            superintendentSignature: KESTLEWICK.superintendent,
            superintendentDesignation: 'Superintendent Registrar',
          },
          informant1: { address: at(KESTLEWICK, '7 Larkspur Close') },
          informant2: { address: at(KESTLEWICK, '7 Larkspur Close') },
          child: {
            originalPrefix: 'Miss',
            prefix: 'Miss',
            originalForenames: 'Ellen Rose',
            originalSuffix: 'II',
            suffix: 'II',
          },
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
      }),
    },
    {
      id: 999999001,
      type: 'birth',
      shows: 'Several matches: one of three births found by the same search',
      search: MARSDEN,
      record: marsden(
        58,
        'George Arthur',
        nm('Joanne', 'Marsden'),
        { ...nm('Craig Anthony', 'Marsden'), occupation: 'Electrician' },
        KESTLEWICK,
      ),
    },
    {
      id: 999999002,
      type: 'birth',
      shows: 'Several matches: the second of the three',
      search: MARSDEN,
      record: marsden(
        61,
        'George Henry',
        nm('Priya', 'Marsden'),
        { ...nm('Stuart', 'Marsden'), occupation: 'Bus driver' },
        KESTLEWICK,
      ),
    },
    {
      id: 999999003,
      type: 'birth',
      shows: 'Several matches: the third of the three',
      search: MARSDEN,
      record: marsden(
        112,
        'George William',
        nm('Kelly Marie', 'Marsden'),
        { ...nm('Lee', 'Marsden'), occupation: 'Plasterer' },
        HALSWORTH,
      ),
    },
    {
      id: 999999010,
      type: 'birth',
      shows: 'Single match, born on a leap day, registered in Wales',
      search: { surname: 'Llewellyn', forenames: 'Poppy', dateOfBirth: '2012-02-29' },
      record: birthRecord({
        entry: 37,
        registered: '2012-03-19',
        place: CWM_ARAN,
        child: child('Poppy Anwen', 'Llewellyn', '2012-02-29', 'Female'),
        mother: parent('Carys', 'Llewellyn', 'Llanfedw', 'Primary school teacher', 'Bevan'),
        father: parent('Huw Gareth', 'Llewellyn', 'Pontyrhew', 'Farmer'),
      }),
    },
    {
      id: 999999020,
      type: 'birth',
      shows: 'Blocked: only the id and the blocked flag are shown',
      search: { surname: 'Carrow', forenames: 'Felix', dateOfBirth: '2005-11-02' },
      record: birthRecord({
        entry: 403,
        registered: '2005-11-21',
        place: HALSWORTH,
        blocked: true,
        child: child('Felix Edmund', 'Carrow', '2005-11-02', 'Male'),
        mother: parent('Imogen', 'Carrow', 'Halsworth', 'Solicitor'),
        father: parent('Benedict', 'Carrow', 'Kestlewick', 'Architect'),
      }),
    },
    {
      id: 999999030,
      type: 'birth',
      shows: 'Registration with a correction',
      search: { surname: 'Pemberton', forenames: 'Rosalind', dateOfBirth: '2011-07-19' },
      record: birthRecord({
        entry: 276,
        registered: '2011-08-01',
        place: KESTLEWICK,
        child: child('Rosalind Mary', 'Pemberton', '2011-07-19', 'Female'),
        mother: parent('Fiona', 'Pemberton', 'Pennock Bay', 'Physiotherapist', 'Gilchrist'),
        father: parent('Adrian', 'Pemberton', 'Kestlewick', 'Police officer'),
        more: { status: { correction: "Clerical: spelling of the mother's birthplace corrected" } },
      }),
    },
    {
      id: 999999031,
      type: 'birth',
      shows: 'Registration with a marginal note',
      search: { surname: 'Quennell', forenames: 'Harry', dateOfBirth: '2013-04-06' },
      record: birthRecord({
        entry: 88,
        registered: '2013-04-22',
        place: PENNOCK,
        child: child('Harry James', 'Quennell', '2013-04-06', 'Male'),
        mother: parent('Leanne', 'Quennell', 'Saltings', 'Care assistant'),
        more: { status: { marginalNote: 'Adoption order made' } },
      }),
    },
    {
      id: 999999032,
      type: 'birth',
      shows: 'Cancelled registration: found by a search, never verified',
      search: { surname: 'Tremlett', forenames: 'Oscar', dateOfBirth: '2007-01-23' },
      record: birthRecord({
        entry: 17,
        registered: '2007-02-05',
        place: PENNOCK,
        child: child('Oscar Benedict', 'Tremlett', '2007-01-23', 'Male'),
        mother: parent('Alison', 'Tremlett', 'Saltings', 'Lifeguard'),
        more: { status: { cancelled: true, marginalNote: 'Registration cancelled: entered in error' } },
      }),
    },
    {
      id: 999999040,
      type: 'birth',
      shows: 'Re-registration chain: the first registration, linked to its replacement',
      search: WHITCOMBE,
      record: birthRecord({
        entry: 151,
        registered: '2015-05-11',
        ...whitcombe,
        mother: parent('Hannah', 'Whitcombe', 'Brindle Cross', 'Dental nurse'),
        more: { status: { marginalNote: 'Birth re-registered' } },
      }),
    },
    {
      id: 999999041,
      type: 'birth',
      shows: 'Re-registration chain: the re-registration, linked back to the first',
      search: WHITCOMBE,
      record: birthRecord({
        entry: 32,
        registered: '2016-02-03',
        ...whitcombe,
        mother: parent('Hannah', 'Tennant', 'Brindle Cross', 'Dental nurse', 'Whitcombe'),
        father: parent('Ross', 'Tennant', 'Halsworth', 'Joiner'),
        more: { status: { reregistration: 'Parents married after the birth' } },
      }),
      replaces: 999999040,
    },
    {
      id: 999999050,
      type: 'birth',
      shows: 'Chain of three: the first registration; the blocked second one is embedded but hidden',
      search: RIDLEY,
      record: birthRecord({
        entry: 209,
        registered: '2003-09-24',
        ...ridley,
        mother: donna,
        more: { status: { marginalNote: 'Birth re-registered' } },
      }),
    },
    {
      id: 999999051,
      type: 'birth',
      shows: 'Chain of three: the blocked middle registration',
      search: RIDLEY,
      record: birthRecord({
        entry: 14,
        registered: '2004-01-12',
        blocked: true,
        ...ridley,
        mother: donna,
        father: karl,
        more: { status: { marginalNote: 'Birth re-registered', reregistration: "Father's details added" } },
      }),
      replaces: 999999050,
    },
    {
      id: 999999052,
      type: 'birth',
      shows: 'Chain of three: the last registration; its predecessor is blocked, the first shown',
      search: RIDLEY,
      record: birthRecord({
        entry: 97,
        registered: '2006-06-05',
        ...ridley,
        mother: parent('Donna', 'Jessop', 'Pennock Bay', 'Shop assistant', 'Ridley'),
        father: karl,
        more: { status: { reregistration: 'Parents married after the birth' } },
      }),
      replaces: 999999051,
    },
    {
      id: 999999060,
      type: 'birth',
      shows: 'Accented forenames and surname; a close match with the accents left out is normalised',
      search: { surname: 'Dufrêne', forenames: 'Zoë', dateOfBirth: '2014-12-03' },
      suggestion: closeMatch('dateOfBirth', ['Dufrene', 'Zoe', '2014-12-03'], ['normalised', 'word-prefix', 'exact']),
      record: birthRecord({
        entry: 330,
        registered: '2014-12-15',
        place: HALSWORTH,
        child: child('Zoë Héloïse', 'Dufrêne', '2014-12-03', 'Female'),
        mother: parent('Anaïs', 'Dufrêne', 'Rouen, France', 'Translator', 'Leclère'),
        father: parent('Øyvind', 'Dufrêne', 'Bergen, Norway', 'Marine engineer'),
      }),
    },
    {
      id: 999999061,
      type: 'birth',
      shows: 'Hyphenated forename and surname',
      search: { surname: 'Fairfax-Lowe', forenames: 'Lily-Rose', dateOfBirth: '2009-06-30' },
      record: birthRecord({
        entry: 190,
        registered: '2009-07-14',
        place: KESTLEWICK,
        child: child('Lily-Rose', 'Fairfax-Lowe', '2009-06-30', 'Female'),
        mother: parent('Anne-Marie', 'Fairfax-Lowe', 'Kestlewick', 'Estate agent', 'Fairfax'),
        father: parent('Dominic', 'Fairfax-Lowe', 'Halsworth', 'Accountant'),
      }),
    },
    // Close matches: one record for each kind of match, found first by details slightly wrong.
    {
      id: 999999070,
      type: 'birth',
      shows: 'Close match by a nickname: Bill for William',
      search: { surname: 'Pryce', forenames: 'William', dateOfBirth: '2011-05-09' },
      suggestion: closeMatch('dateOfBirth', ['Pryce', 'Bill', '2011-05-09'], ['exact', 'nickname', 'exact']),
      record: birthRecord({
        entry: 118,
        registered: '2011-05-20',
        place: HALSWORTH,
        child: child('William Arthur', 'Pryce', '2011-05-09', 'Male'),
        mother: parent('Gwen', 'Pryce', 'Llanfedw', 'Teacher', 'Rees'),
        father: parent('Owen', 'Pryce', 'Halsworth', 'Electrician'),
      }),
    },
    {
      id: 999999071,
      type: 'birth',
      shows: 'Close match by sound: Kathryn for Catherine, Smith for Smyth',
      search: { surname: 'Smyth', forenames: 'Catherine', dateOfBirth: '2012-10-22' },
      suggestion: closeMatch(
        'dateOfBirth',
        ['Smith', 'Kathryn', '2012-10-22'],
        ['sound-alike', 'sound-alike', 'exact'],
      ),
      record: birthRecord({
        entry: 402,
        registered: '2012-11-02',
        place: KESTLEWICK,
        child: child('Catherine Grace', 'Smyth', '2012-10-22', 'Female'),
        mother: parent('Joanne', 'Smyth', 'Kestlewick', 'Nurse', 'Hollis'),
        father: parent('Martin', 'Smyth', 'Kestlewick', 'Plasterer'),
      }),
    },
    {
      id: 999999072,
      type: 'birth',
      shows: 'Close match by spelling: Thomson for Thompson (one letter out)',
      search: { surname: 'Thompson', forenames: 'Alfie', dateOfBirth: '2010-02-17' },
      suggestion: closeMatch('dateOfBirth', ['Thomson', 'Alfie', '2010-02-17'], ['spelling', 'exact', 'exact']),
      record: birthRecord({
        entry: 64,
        registered: '2010-03-01',
        place: HALSWORTH,
        child: child('Alfie', 'Thompson', '2010-02-17', 'Male'),
        mother: parent('Leanne', 'Thompson', 'Halsworth', 'Hairdresser'),
      }),
    },
    {
      id: 999999073,
      type: 'birth',
      shows: 'Close match by part of a name: Cartwright for Ashby-Cartwright, the middle name Mae given as the first',
      search: { surname: 'Ashby-Cartwright', forenames: 'Esme Mae', dateOfBirth: '2014-08-25' },
      suggestion: closeMatch(
        'dateOfBirth',
        ['Cartwright', 'Mae', '2014-08-25'],
        ['part-of-name', 'part-of-name', 'exact'],
      ),
      record: birthRecord({
        entry: 277,
        registered: '2014-09-08',
        place: KESTLEWICK,
        child: child('Esme Mae', 'Ashby-Cartwright', '2014-08-25', 'Female'),
        mother: parent('Philippa', 'Ashby-Cartwright', 'Kestlewick', 'Architect', 'Ashby'),
        father: parent('Neil', 'Ashby-Cartwright', 'Halsworth', 'Surveyor'),
      }),
    },
    {
      id: 999999074,
      type: 'birth',
      shows: 'Close match with the names swapped: surname Morgan, forenames Elliot, for Morgan Elliot',
      search: { surname: 'Elliot', forenames: 'Morgan', dateOfBirth: '2009-09-12' },
      suggestion: closeMatch('dateOfBirth', ['Morgan', 'Elliot', '2009-09-12'], ['swapped', 'swapped', 'exact']),
      record: birthRecord({
        entry: 301,
        registered: '2009-09-25',
        place: HALSWORTH,
        child: child('Morgan', 'Elliot', '2009-09-12', 'Male'),
        mother: parent('Kerry', 'Elliot', 'Halsworth', 'Care worker'),
        father: parent('Shane', 'Elliot', 'Halsworth', 'Driver'),
      }),
    },
    {
      id: 999999075,
      type: 'birth',
      shows: 'Close match with the day and month exchanged: 2013-07-04 for 2013-04-07',
      search: { surname: 'Linthwaite', forenames: 'Harriet', dateOfBirth: '2013-04-07' },
      suggestion: closeMatch(
        'dateOfBirth',
        ['Linthwaite', 'Harriet', '2013-07-04'],
        ['exact', 'exact', 'day-month-swapped'],
      ),
      record: birthRecord({
        entry: 99,
        registered: '2013-04-19',
        place: KESTLEWICK,
        child: child('Harriet', 'Linthwaite', '2013-04-07', 'Female'),
        mother: parent('Sophie', 'Linthwaite', 'Kestlewick', 'Pharmacist', 'Dunn'),
        father: parent('Ross', 'Linthwaite', 'Kestlewick', 'Chef'),
      }),
    },
    {
      id: 999999076,
      type: 'birth',
      shows: 'Close match by a near date: 2016-01-01 for 2015-12-30, across the year',
      search: { surname: 'Oakden', forenames: 'Jasper', dateOfBirth: '2015-12-30' },
      suggestion: closeMatch('dateOfBirth', ['Oakden', 'Jasper', '2016-01-01'], ['exact', 'exact', 'near-date']),
      record: birthRecord({
        entry: 2,
        registered: '2016-01-08',
        place: HALSWORTH,
        child: child('Jasper', 'Oakden', '2015-12-30', 'Male'),
        mother: parent('Rachel', 'Oakden', 'Halsworth', 'Solicitor', 'Firth'),
      }),
    },
    ...CLOSE_MATCH_LEVELS.map(([id, forenames, surname, dateOfBirth, sex, mother, shows, query, matched], i) => ({
      id,
      type: 'birth',
      shows,
      search: { surname, forenames, dateOfBirth },
      suggestion: closeMatch('dateOfBirth', query, matched),
      record: birthRecord({
        entry: 140 + i,
        registered: addDays(dateOfBirth, 12),
        place: HALSWORTH,
        child: child(forenames, surname, dateOfBirth, sex),
        mother: parent(mother, surname, 'Halsworth', 'Teacher'),
      }),
    })),
    {
      id: 999999077,
      type: 'birth',
      shows: 'No forenames registered: no exact search finds it; a close match says the forenames are missing',
      suggestion: closeMatch('dateOfBirth', ['Penhaligon', 'Rowan', '2017-03-12'], ['exact', 'missing', 'exact']),
      record: birthRecord({
        entry: 88,
        registered: '2017-03-20',
        place: CWM_ARAN,
        child: child('', 'Penhaligon', '2017-03-12', 'Male'),
        mother: parent('Tamsin', 'Penhaligon', 'Truro', 'Potter'),
        more: { child: { forenames: null } },
      }),
    },
    {
      id: 999999062,
      type: 'birth',
      shows: 'Surname with an apostrophe',
      search: { surname: "O'Donoghue", forenames: 'Niamh', dateOfBirth: '2016-01-17' },
      record: birthRecord({
        entry: 21,
        registered: '2016-02-01',
        place: CWM_ARAN,
        child: child('Niamh Orla', "O'Donoghue", '2016-01-17', 'Female'),
        mother: parent('Bronagh', "O'Donoghue", 'Cork, Ireland', 'Midwife', 'Keane'),
        father: parent('Padraig', "O'Donoghue", 'Llanfedw', 'Civil engineer'),
      }),
    },
  ],
  verificationSources: {
    required: { surname: 'child.surname', forenames: 'child.forenames', dateOfBirth: 'child.dateOfBirth' },
    optional: {
      systemNumber: 'id',
      placeOfBirth: 'child.birthplace',
      motherForenames: 'mother.forenames',
      motherSurname: 'mother.surname',
      motherMaidenSurname: 'mother.maidenSurname',
      fatherForenames: 'father.forenames',
      fatherSurname: 'father.surname',
      registrationDistrict: 'registrar.district',
    },
  },
});
