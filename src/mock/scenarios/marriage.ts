/**
 * The mock's marriages: what each record is for, how to find it (through the groom or the
 * bride), and the record as its register entry reads, written whole (a field its entry does not
 * give is unrecorded, not invented).
 */
import { marriage } from '../../records/types/marriage.ts';
import { closeMatch, defineScenarios, recordOf } from '../dataset.ts';
import { CWM_ARAN, HALSWORTH, KESTLEWICK, type Name, PENNOCK, type Place, at, nm, signed } from '../places.ts';

type Data = { [key: string]: unknown };

interface Spouse extends Name {
  age: number;
  occupation: string;
  address: string;
  condition: string;
  father: Name & { occupation: string };
}

interface MarriageSpec {
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

/** A marriage with its two witnesses, registered in the district's register office. */
function marriageRecord(s: MarriageSpec): Data {
  const spouse = ({ father: _, ...p }: Spouse) => ({
    ...p,
    retired: false,
    signature: signed(p),
    signatureIsMark: false,
  });
  const father = (f: Spouse['father']) => ({ ...f, retired: false, deceased: false });
  const witness = (w: Name) => ({ signature: signed(w), signatureIsMark: false });
  const entry = {
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
  };
  return recordOf(marriage, entry, s.more ?? {});
}

/** A groom or bride: names, age, occupation, address, condition, and their father's name and occupation. */
const spouse = (
  name: Name,
  age: number,
  occupation: string,
  address: string,
  condition: string,
  father: Name,
  fatherOccupation: string,
): Spouse => ({
  ...name,
  age,
  occupation,
  address,
  condition,
  father: { ...father, occupation: fatherOccupation },
});

const stMichael = (place: Place) => ({
  short: `St Michael's Church, ${place.town}`,
  address: `St Michael's Church, Church Street, ${place.town}`,
  parish: `St Michael, ${place.town}`,
});
const registerOffice = (place: Place) => ({
  short: `${place.district} Register Office`,
  address: `Register Office, Town Hall, ${place.town}`,
});

const WITNESSES_12 = [
  nm('Eleri', 'Vaughan'),
  nm('Joseph', 'Kingsley'),
  nm('Agnes', 'Merridew'),
  nm('Rhys', 'Pugh'),
  nm('Beatrice', 'Lorimer'),
  nm('Conor', 'Mulvey'),
  nm('Hetty', 'Sandford'),
  nm('Iain', 'Buchanan'),
  nm('Yasmin', 'Chaudhry'),
  nm('Oscar', 'Penrose'),
  nm('Tilly', 'Ashcroft'),
  nm('Wilfred', 'Dunmore'),
];

const HUGHES = { surname: 'Hughes', forenames: 'Thomas', dateOfMarriage: '2015-06-20' };
const BARRACLOUGH = { surname: 'Barraclough', forenames: 'Philip', dateOfMarriage: '2009-08-15' };

/** One of three Thomas Hughes married on the same day, the second in the register office. */
const hughes = (
  id: number,
  entry: number,
  forenames: string,
  bride: Spouse,
  groomFather: string,
  street: string,
  age: number,
) =>
  marriageRecord({
    entry,
    date: '2015-06-20',
    place: CWM_ARAN,
    venue:
      id === 999999002
        ? registerOffice(CWM_ARAN)
        : { short: 'Capel Bethel, Llanfedw', address: 'Capel Bethel, Heol y Capel, Llanfedw' },
    minister: id === 999999002 ? [CWM_ARAN.registrar, 'Registrar'] : ['Parch. D. Morgan', 'Minister'],
    groom: spouse(
      nm(forenames, 'HUGHES'),
      age,
      'Mechanic',
      at(CWM_ARAN, street),
      'Single',
      nm(groomFather, 'HUGHES'),
      'Lorry driver',
    ),
    bride,
    witnesses: [nm('Gwen', 'Hughes'), nm(bride.father.forenames, bride.father.surname)],
  });
const bride = (forenames: string, surname: string, age: number, occupation: string, street: string, father: string) =>
  spouse(nm(forenames, surname), age, occupation, at(CWM_ARAN, street), 'Single', nm(father, surname), 'Retired');

const barraclough = {
  date: '2009-08-15',
  place: HALSWORTH,
  venue: registerOffice(HALSWORTH),
  minister: [HALSWORTH.registrar, 'Registrar'] as [string, string],
  groom: spouse(
    nm('Philip Ronald', 'BARRACLOUGH'),
    41,
    'Heating engineer',
    at(HALSWORTH, '9 Canal Side'),
    'Divorced',
    nm('Ronald', 'BARRACLOUGH'),
    'Foundry worker',
  ),
  bride: spouse(
    nm('Tracey Louise', 'HIGGINBOTTOM'),
    38,
    'Receptionist',
    at(HALSWORTH, '9 Canal Side'),
    'Single',
    nm('Brian', 'HIGGINBOTTOM'),
    'Postman',
  ),
  witnesses: [nm('Gary', 'Barraclough'), nm('Michelle', 'Doyle')] as [Name, Name],
};

/** A couple at one address, both single. */
const couple = (
  place: Place,
  street: string,
  groom: [Name, number, string, Name, string],
  bride: [Name, number, string, Name, string],
) => ({
  groom: spouse(groom[0], groom[1], groom[2], at(place, street), 'Single', groom[3], groom[4]),
  bride: spouse(bride[0], bride[1], bride[2], at(place, street), 'Single', bride[3], bride[4]),
});

const corbett = marriageRecord({
  entry: 119,
  date: '2012-09-01',
  place: KESTLEWICK,
  venue: stMichael(KESTLEWICK),
  minister: ['Revd C. Haworth', 'Vicar'],
  ...couple(
    KESTLEWICK,
    '31 Foundry Street',
    [nm('Matthew John', 'CORBETT'), 29, 'Software developer', nm('Stephen', 'CORBETT'), 'Teacher'],
    [nm('Lucy Anne', 'FAIRWEATHER'), 28, 'Graphic designer', nm('Robert', 'FAIRWEATHER'), 'Fire officer'],
  ),
  witnesses: [nm('Adam', 'Corbett'), nm('Jessica', 'Fairweather')],
});

export const marriages = defineScenarios({
  type: 'marriage',
  scenarios: [
    {
      id: 123456789,
      type: 'marriage',
      shows: 'Every field filled, including twelve witnesses and two ministers',
      search: { surname: 'Merridew', forenames: 'Daniel', dateOfMarriage: '2008-08-08' },
      record: marriageRecord({
        entry: 48,
        date: '2008-08-08',
        place: KESTLEWICK,
        venue: stMichael(KESTLEWICK),
        minister: ['Revd C. Haworth', 'Vicar'],
        groom: spouse(
          nm('Daniel Owen', 'MERRIDEW'),
          34,
          'Chartered accountant',
          at(KESTLEWICK, '15 Abbey Walk'),
          'Divorced',
          nm('Owen Richard', 'MERRIDEW'),
          'Dairy farmer',
        ),
        bride: spouse(
          nm('Sophie Catherine', 'KINGSLEY'),
          31,
          'Occupational therapist',
          at(KESTLEWICK, '2 Mill Race'),
          'Widowed',
          nm('Joseph', 'LATIMER'),
          'Printer',
        ),
        witnesses: [WITNESSES_12[0], WITNESSES_12[1]],
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
            WITNESSES_12.map((w, i) => [`witness${i + 1}`, { signature: signed(w), signatureIsMark: i === 3 }]),
          ),
          minister2: { signature: 'Revd P. Okonkwo', designation: 'Assistant curate' },
        },
      }),
    },
    {
      id: 999999001,
      type: 'marriage',
      shows: 'Several matches: one of three grooms of the same name married on the same day',
      search: HUGHES,
      record: hughes(
        999999001,
        71,
        'Thomas Rhys',
        bride('Ffion', 'PARRY', 27, 'Nurse', '3 Maes yr Eglwys', 'Emrys'),
        'Dewi',
        '11 Heol Aran',
        29,
      ),
    },
    {
      id: 999999002,
      type: 'marriage',
      shows: 'Several matches: the second of the three',
      search: HUGHES,
      record: hughes(
        999999002,
        72,
        'Thomas Alun',
        bride('Sian Elin', 'JONES', 24, 'Hairdresser', '40 Stryd y Parc', 'Gareth'),
        'Alun',
        'Pen-y-Bryn Farm',
        26,
      ),
    },
    {
      id: 999999003,
      type: 'marriage',
      shows: 'Several matches: the third of the three',
      search: HUGHES,
      record: hughes(
        999999003,
        73,
        'Thomas Gareth',
        bride('Catrin', 'WILLIAMS', 30, 'Solicitor', '1 Tan y Castell', 'Iolo'),
        'Meirion',
        '7 Rhes Newydd',
        32,
      ),
    },
    {
      id: 999999010,
      type: 'marriage',
      shows: 'Single match, found through the groom',
      search: { surname: 'Corbett', forenames: 'Matthew', dateOfMarriage: '2012-09-01' },
      record: corbett,
    },
    {
      id: 999999010,
      type: 'marriage',
      shows:
        "The same marriage, found through the bride; a close match by her surname's spelling and the day and " +
        'month exchanged',
      search: { surname: 'Fairweather', forenames: 'Lucy', dateOfMarriage: '2012-09-01' },
      suggestion: closeMatch(
        'dateOfMarriage',
        ['Fairwether', 'Lucy', '2012-01-09'],
        ['sound-alike', 'word-prefix', 'day-month-swapped'],
      ),
    },
    {
      id: 999999020,
      type: 'marriage',
      shows: 'Blocked: only the id and the blocked flag are shown',
      search: { surname: 'Stanhope', forenames: 'Clara', dateOfMarriage: '2006-04-29' },
      record: marriageRecord({
        entry: 35,
        date: '2006-04-29',
        place: PENNOCK,
        blocked: true,
        venue: registerOffice(PENNOCK),
        minister: [PENNOCK.registrar, 'Registrar'],
        ...couple(
          PENNOCK,
          'Lookout Cottage, Cliff Road',
          [nm('Nathaniel', 'VOSPER'), 36, 'Harbour pilot', nm('Jory', 'VOSPER'), 'Fisherman'],
          [nm('Clara Jane', 'STANHOPE'), 33, 'Journalist', nm('Edmund', 'STANHOPE'), 'Barrister'],
        ),
        witnesses: [nm('Tamsin', 'Vosper'), nm('Hugh', 'Stanhope')],
      }),
    },
    {
      id: 999999040,
      type: 'marriage',
      shows: 'Re-registration chain: the first registration, linked to its replacement',
      search: BARRACLOUGH,
      record: marriageRecord({
        entry: 210,
        ...barraclough,
        more: { status: { marginalNote: 'Marriage re-registered' } },
      }),
    },
    {
      id: 999999041,
      type: 'marriage',
      shows: 'Re-registration chain: the re-registration, linked back to the first',
      search: BARRACLOUGH,
      record: marriageRecord({
        entry: 3,
        ...barraclough,
        bride: { ...barraclough.bride, age: 39 },
        more: { status: { marginalNote: "Re-registration: bride's age corrected" } },
      }),
      replaces: 999999040,
    },
    {
      id: 999999050,
      type: 'marriage',
      shows: 'Accented forenames and surname (the bride)',
      search: { surname: 'Lefèvre', forenames: 'Chloë', dateOfMarriage: '2017-05-13' },
      record: marriageRecord({
        entry: 152,
        date: '2017-05-13',
        place: PENNOCK,
        venue: {
          short: 'The Old Lifeboat House, Pennock Bay',
          address: 'The Old Lifeboat House, Slipway Road, Pennock Bay',
        },
        minister: [PENNOCK.registrar, 'Registrar'],
        ...couple(
          PENNOCK,
          '6 Chapel Steps',
          [nm('Rhodri', 'PRYCE'), 35, 'Sound engineer', nm('Emlyn', 'PRYCE'), 'Minister of religion'],
          [nm('Chloë Adèle', 'LEFÈVRE'), 32, 'Pastry chef', nm('Jérôme', 'LEFÈVRE'), 'Boulanger'],
        ),
        witnesses: [nm('Noémie', 'Lefèvre'), nm('Gethin', 'Pryce')],
      }),
    },
    {
      id: 999999051,
      type: 'marriage',
      shows: 'Hyphenated forename and surname (the groom)',
      search: { surname: 'Ashby-Grant', forenames: 'Jean-Luc', dateOfMarriage: '2011-07-23' },
      record: marriageRecord({
        entry: 187,
        date: '2011-07-23',
        place: HALSWORTH,
        venue: { short: 'Brindle Hall', address: 'Brindle Hall, Hall Lane, Brindle Cross' },
        minister: [HALSWORTH.registrar, 'Registrar'],
        ...couple(
          HALSWORTH,
          '18 Rookery Lane',
          [nm('Jean-Luc', 'ASHBY-GRANT'), 30, 'Architect', nm('Malcolm', 'ASHBY-GRANT'), 'Surveyor'],
          [nm('Rachel', 'OKAFOR'), 29, 'Pharmacist', nm('Chinedu', 'OKAFOR'), 'Civil servant'],
        ),
        witnesses: [nm('Toby', 'Ashby-Grant'), nm('Adaeze', 'Okafor')],
      }),
    },
    {
      id: 999999052,
      type: 'marriage',
      shows: 'Surname with an apostrophe (the bride)',
      search: { surname: "O'Dwyer", forenames: 'Siobhan', dateOfMarriage: '2013-10-12' },
      record: marriageRecord({
        entry: 64,
        date: '2013-10-12',
        place: CWM_ARAN,
        venue: {
          short: "St Non's Catholic Church, Llanfedw",
          address: "St Non's Catholic Church, Ffordd yr Orsaf, Llanfedw",
        },
        minister: ['Fr T. Mahoney', 'Priest'],
        ...couple(
          CWM_ARAN,
          '2 Bryn Teg',
          [nm('Gareth Wyn', 'EVANS'), 27, 'Paramedic', nm('Wyn', 'EVANS'), 'Bus driver'],
          [nm('Siobhan Mary', "O'DWYER"), 26, 'Primary school teacher', nm('Cormac', "O'DWYER"), 'Publican'],
        ),
        witnesses: [nm('Aoife', "O'Dwyer"), nm('Dafydd', 'Evans')],
      }),
    },
  ],
  verificationSources: {
    required: {
      partner1Surname: 'groom.surname',
      partner1Forenames: 'groom.forenames',
      partner2Surname: 'bride.surname',
      partner2Forenames: 'bride.forenames',
      dateOfMarriage: 'dateOfMarriage',
    },
    optional: {
      systemNumber: 'id',
      placeOfMarriage: 'placeOfMarriage.short',
      registrationDistrict: 'registrar.district',
    },
  },
});
