/**
 * The mock's deaths: what each record is for, how to find it, and the record as its register
 * entry reads, written whole (a field its entry does not give is unrecorded, not invented). The
 * register writes surnames in capitals.
 */
import { death } from '../../records/types/death.ts';
import { closeMatch, defineScenarios, recordOf } from '../dataset.ts';
import { CWM_ARAN, HALSWORTH, KESTLEWICK, type Name, PENNOCK, type Place, at, nm, signed } from '../places.ts';

type Data = { [key: string]: unknown };

interface Deceased extends Name {
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
}

interface DeathSpec {
  entry: number;
  registered: string;
  place: Place;
  deceased: Deceased;
  informant: Name & { qualification: string; address: string };
  partner?: { name: string; occupation: string; retired: boolean };
  blocked?: boolean;
  more?: Data;
}

/** A death registered where it happened, in the district's hospital, certified by its doctor. */
function deathRecord(s: DeathSpec): Data {
  const entry = {
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
    status: {
      blocked: s.blocked ?? false,
      correction: 'None',
      marginalNote: 'None',
      onAuthorityOfRegistrarGeneral: false,
    },
  };
  return recordOf(death, entry, s.more ?? {});
}

/** The deceased's details, in the register's order. */
const deceased = (
  name: Name,
  sex: 'Male' | 'Female',
  [dateOfBirth, dateOfDeath, ageAtDeath]: [string | null, string, string],
  birthplace: string,
  address: string,
  causeOfDeath: string,
  more: Partial<Deceased> = {},
): Deceased => ({ ...name, sex, dateOfBirth, dateOfDeath, ageAtDeath, birthplace, address, ...more, causeOfDeath });

const informant = (name: Name, qualification: string, address: string) => ({ ...name, qualification, address });

const HARGREAVES = { surname: 'Hargreaves', forenames: 'Margaret', date: '2011-11-05' };
const GASKELL = { surname: 'Gaskell', forenames: 'Albert', date: '2013-01-28' };

/** One of three Margaret Hargreaves who died on the same day. */
const hargreaves = (entry: number, forenames: string, dateOfBirth: string, age: string, street: string, son: Name) =>
  deathRecord({
    entry,
    registered: '2011-11-08',
    place: HALSWORTH,
    deceased: deceased(
      nm(forenames, 'HARGREAVES'),
      'Female',
      [dateOfBirth, '2011-11-05', age],
      'Halsworth',
      at(HALSWORTH, street),
      'Pneumonia',
      {
        occupation: 'Retired mill worker',
        retired: true,
      },
    ),
    informant: informant(son, 'Son', at(HALSWORTH, street)),
  });

const gaskell = {
  place: PENNOCK,
  deceased: deceased(
    nm('Albert Henry', 'GASKELL'),
    'Male',
    ['1948-12-01', '2013-01-28', '64 years'],
    'Saltings',
    at(PENNOCK, '2 Harbour Cottages'),
    'Pending further inquiry',
    {
      occupation: 'Boat builder',
      retired: false,
    },
  ),
  informant: informant(nm('Janet', 'GASKELL'), 'Widow', at(PENNOCK, '2 Harbour Cottages')),
  partner: { name: 'Janet GASKELL', occupation: 'Harbour office clerk', retired: false },
};

export const deaths = defineScenarios({
  type: 'death',
  scenarios: [
    {
      id: 123456789,
      type: 'death',
      shows: 'Every field filled, including two other names',
      search: { surname: 'Thorne', forenames: 'Margery', date: '2009-11-21' },
      record: deathRecord({
        entry: 502,
        registered: '2009-11-25',
        place: KESTLEWICK,
        deceased: deceased(
          nm('Margery Elspeth', 'THORNE'),
          'Female',
          ['1927-03-03', '2009-11-21', '82 years'],
          'Aldbury St Giles',
          at(KESTLEWICK, '3 Quarry Lane'),
          'Congestive cardiac failure',
          {
            occupation: 'School secretary',
            retired: true,
            maidenSurname: 'CALDWELL',
            relationshipToPartner: 'Widow of',
          },
        ),
        informant: informant(
          nm('Patricia Anne', 'HOLBROOK'),
          'Daughter, present at the death',
          at(HALSWORTH, '19 Moorgate Road'),
        ),
        partner: { name: 'Leonard Arthur THORNE', occupation: 'Railway signalman', retired: true },
        more: {
          deceased: {
            prefix: 'Mrs',
            suffix: 'MBE',
            dateOfDeathQualifier: 'Found dead on',
            aliases: [
              {
                type: 'formerly known as',
                prefix: 'Miss',
                forenames: 'Margery Elspeth',
                surname: 'CALDWELL',
                suffix: 'MBE',
              },
              { type: 'otherwise', prefix: 'Mrs', forenames: 'Peggy', surname: 'THORNE', suffix: 'MBE' },
            ],
          },
          mother: { name: 'Ada Winifred CALDWELL', occupation: 'Seamstress' },
          father: { name: 'Frederick CALDWELL', occupation: 'Coal merchant' },
          coroner: { name: KESTLEWICK.coroner, designation: 'Senior Coroner', area: 'Aldershire' },
          inquestDate: '2010-02-16',
          status: { onAuthorityOfRegistrarGeneral: true },
        },
      }),
    },
    {
      id: 999999001,
      type: 'death',
      shows: 'Several matches: one of three deaths on the same day found by the same search',
      search: HARGREAVES,
      record: hargreaves(311, 'Margaret Ann', '1929-04-17', '82 years', '14 Weavers Row', nm('Keith', 'HARGREAVES')),
    },
    {
      id: 999999002,
      type: 'death',
      shows: 'Several matches: the second of the three',
      search: HARGREAVES,
      record: hargreaves(312, 'Margaret Joan', '1935-09-30', '76 years', '6 Tenter Street', nm('Alan', 'HARGREAVES')),
    },
    {
      id: 999999003,
      type: 'death',
      shows: 'Several matches: the third of the three',
      search: HARGREAVES,
      record: hargreaves(
        315,
        'Margaret Elsie',
        '1921-01-08',
        '90 years',
        'Flat 2, Millbrook Court',
        nm('Derek', 'HARGREAVES'),
      ),
    },
    {
      id: 999999010,
      type: 'death',
      shows:
        'Single match, found by the date of birth; a close match by a nickname and a day out (the register ' +
        'writes the surname in capitals)',
      search: { surname: 'Priddy', forenames: 'Walter', date: '1930-06-14' },
      suggestion: closeMatch('date', ['Priddy', 'Walt', '1930-06-15'], ['normalised', 'nickname', 'near-date']),
      record: deathRecord({
        entry: 640,
        registered: '2012-12-04',
        place: KESTLEWICK,
        deceased: deceased(
          nm('Walter Ernest', 'PRIDDY'),
          'Male',
          ['1930-06-14', '2012-12-01', '82 years'],
          'Kestlewick',
          at(KESTLEWICK, '40 Chantry Road'),
          'Carcinoma of the prostate',
          {
            occupation: 'Postman',
            retired: true,
            relationshipToPartner: 'Husband of',
          },
        ),
        informant: informant(nm('Irene', 'PRIDDY'), 'Widow', at(KESTLEWICK, '40 Chantry Road')),
        partner: { name: 'Irene PRIDDY', occupation: 'Dinner lady', retired: true },
      }),
    },
    {
      id: 999999020,
      type: 'death',
      shows: 'Blocked: only the id and the blocked flag are shown',
      search: { surname: 'Mowbray', forenames: 'Cecil', date: '2012-04-18' },
      record: deathRecord({
        entry: 227,
        registered: '2012-04-20',
        place: HALSWORTH,
        blocked: true,
        deceased: deceased(
          nm('Cecil Raymond', 'MOWBRAY'),
          'Male',
          ['1944-07-22', '2012-04-18', '67 years'],
          'Brindle Cross',
          at(HALSWORTH, '8 Cobden Terrace'),
          'Myocardial infarction',
          {
            occupation: 'Bank manager',
            retired: true,
          },
        ),
        informant: informant(nm('Paul', 'MOWBRAY'), 'Nephew', at(KESTLEWICK, '51 Fenwick Drive')),
      }),
    },
    {
      id: 999999030,
      type: 'death',
      shows: 'Registration with a correction',
      search: { surname: 'Fenwick', forenames: 'Dorothy', date: '2010-10-02' },
      record: deathRecord({
        entry: 488,
        registered: '2010-10-05',
        place: PENNOCK,
        deceased: deceased(
          nm('Dorothy May', 'FENWICK'),
          'Female',
          ['1932-05-05', '2010-10-02', '78 years'],
          'Lindmoor',
          at(PENNOCK, '27 Esplanade'),
          'Cerebrovascular accident',
          {
            occupation: 'Hotel proprietor',
            retired: true,
            maidenSurname: 'TREGASKIS',
            relationshipToPartner: 'Widow of',
          },
        ),
        informant: informant(nm('Susan', 'ROWE'), 'Daughter', at(PENNOCK, '3 Gull Rise')),
        more: { status: { correction: 'Clerical: place of birth corrected' } },
      }),
    },
    {
      id: 999999040,
      type: 'death',
      shows: 'Re-registration chain: the first registration, linked to its replacement',
      search: GASKELL,
      record: deathRecord({
        entry: 61,
        registered: '2013-02-01',
        ...gaskell,
        more: { status: { marginalNote: 'Death re-registered after inquest' } },
      }),
    },
    {
      id: 999999041,
      type: 'death',
      shows: 'Re-registration chain: the re-registration after an inquest, linked back to the first',
      search: GASKELL,
      record: deathRecord({
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
      replaces: 999999040,
    },
    {
      id: 999999050,
      type: 'death',
      shows: 'Accented forenames and surname',
      search: { surname: 'Bjørnstad', forenames: 'Øyvind', date: '2015-03-11' },
      record: deathRecord({
        entry: 133,
        registered: '2015-03-16',
        place: PENNOCK,
        deceased: deceased(
          nm('Øyvind Pål', 'BJØRNSTAD'),
          'Male',
          ['1951-10-19', '2015-03-11', '63 years'],
          'Ålesund, Norway',
          at(PENNOCK, 'Flat 4, Quay House'),
          'Pulmonary embolism',
          {
            occupation: 'Ship’s engineer',
            retired: false,
            relationshipToPartner: 'Husband of',
          },
        ),
        informant: informant(nm('Solveig', 'BJØRNSTAD'), 'Widow', at(PENNOCK, 'Flat 4, Quay House')),
        partner: { name: 'Solveig BJØRNSTAD', occupation: 'Nurse', retired: false },
      }),
    },
    {
      id: 999999051,
      type: 'death',
      shows: 'Hyphenated forename and surname',
      search: { surname: 'Holloway-Price', forenames: 'Sarah-Jane', date: '2018-07-04' },
      record: deathRecord({
        entry: 377,
        registered: '2018-07-09',
        place: KESTLEWICK,
        deceased: deceased(
          nm('Sarah-Jane', 'HOLLOWAY-PRICE'),
          'Female',
          ['1969-02-25', '2018-07-04', '49 years'],
          'Halsworth',
          at(KESTLEWICK, '12 Orchard Way'),
          'Metastatic carcinoma of the breast',
          {
            occupation: 'Veterinary surgeon',
            retired: false,
            maidenSurname: 'HOLLOWAY',
            relationshipToPartner: 'Wife of',
          },
        ),
        informant: informant(nm('Marcus', 'HOLLOWAY-PRICE'), 'Widower', at(KESTLEWICK, '12 Orchard Way')),
        partner: { name: 'Marcus HOLLOWAY-PRICE', occupation: 'Lecturer', retired: false },
      }),
    },
    {
      id: 999999052,
      type: 'death',
      shows: 'Surname with an apostrophe',
      search: { surname: "O'Rourke", forenames: 'Declan', date: '2011-02-14' },
      record: deathRecord({
        entry: 70,
        registered: '2011-02-17',
        place: CWM_ARAN,
        deceased: deceased(
          nm('Declan Patrick', "O'ROURKE"),
          'Male',
          ['1940-03-17', '2011-02-14', '70 years'],
          'Sligo, Ireland',
          at(CWM_ARAN, 'Ty Gwyn, Heol y Bryn'),
          'Chronic obstructive pulmonary disease',
          {
            occupation: 'Quarryman',
            retired: true,
          },
        ),
        informant: informant(nm('Bernadette', 'LLOYD'), 'Daughter', at(CWM_ARAN, '5 Stryd Fawr')),
      }),
    },
    {
      id: 999999060,
      type: 'death',
      shows: 'Born and died on the same day: one search by that date finds it once',
      search: { surname: 'Ellerby', forenames: 'Thomas', date: '2016-05-23' },
      record: deathRecord({
        entry: 255,
        registered: '2016-05-27',
        place: HALSWORTH,
        deceased: deceased(
          nm('Thomas', 'ELLERBY'),
          'Male',
          ['2016-05-23', '2016-05-23', '4 hours'],
          'Halsworth',
          at(HALSWORTH, '22 Beech Grove'),
          'Extreme prematurity',
        ),
        informant: informant(nm('Rebecca', 'ELLERBY'), 'Mother', at(HALSWORTH, '22 Beech Grove')),
        more: {
          mother: { name: 'Rebecca ELLERBY', occupation: 'Florist' },
          father: { name: 'Simon ELLERBY', occupation: 'Warehouse supervisor' },
        },
      }),
    },
    {
      id: 999999061,
      type: 'death',
      shows: 'Date of birth not known: found only by the date of death',
      search: { surname: 'Carlyle', forenames: 'Edwin', date: '2017-02-09' },
      record: deathRecord({
        entry: 91,
        registered: '2017-03-30',
        place: PENNOCK,
        deceased: deceased(
          nm('Edwin', 'CARLYLE'),
          'Male',
          [null, '2017-02-09', 'About 75 years'],
          'Not known',
          'No fixed abode',
          'Hypothermia',
        ),
        informant: informant(nm('Anne', 'ROSEWARNE'), 'Coroner', 'Coroner’s Office, Lindmoor'),
        more: {
          deceased: { dateOfDeathQualifier: 'Found dead on' },
          coroner: { name: PENNOCK.coroner, designation: 'Senior Coroner', area: 'Lindmoor' },
          inquestDate: '2017-03-28',
        },
      }),
    },
  ],
  verificationSources: {
    required: { surname: 'deceased.surname', forenames: 'deceased.forenames', dateOfDeath: 'deceased.dateOfDeath' },
    optional: {
      systemNumber: 'id',
      dateOfBirth: 'deceased.dateOfBirth',
      placeOfDeath: 'deceased.deathplace',
      registrationDistrict: 'registrar.district',
    },
  },
});
