/**
 * The mock's civil partnerships: what each record is for, how to find it (through either
 * partner), and the record as its register entry reads, written whole (a field its entry does not
 * give is unrecorded, not invented).
 */
import { partnership } from '../../records/types/partnership.ts';
import { defineScenarios, recordOf } from '../dataset.ts';
import { CWM_ARAN, HALSWORTH, KESTLEWICK, type Name, PENNOCK, type Place, at, nm, signed } from '../places.ts';

type Data = { [key: string]: unknown };
type Parents = { father: Name & { occupation: string }; mother: Name & { occupation: string } };

interface Partner extends Name, Parents {
  dob: string;
  sex: 'Male' | 'Female';
  occupation: string;
  address: string;
  condition?: string;
}

interface PartnershipSpec {
  date: string;
  place: Place;
  venue: { short: string; address: string };
  partner1: Partner;
  partner2: Partner;
  witnesses: [Name, Name];
  blocked?: boolean;
  more?: Data;
}

/** A partnership with its two witnesses; a partner's condition is 'Single' unless given. */
function partnershipRecord(s: PartnershipSpec): Data {
  const partner = ({ father: _f, mother: _m, ...p }: Partner) => ({
    ...p,
    condition: p.condition ?? 'Single',
    retired: false,
    signature: signed(p),
  });
  const parent = (p: Name & { occupation: string }, designation: string) => ({
    ...p,
    retired: false,
    designation,
    deceased: false,
  });
  const witness = (w: Name) => ({ forename: w.forenames, surname: w.surname });
  const entry = {
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
  };
  return recordOf(partnership, entry, s.more ?? {});
}

const parents = (surname: string, father: string, fatherJob: string, mother: string, motherJob: string): Parents => ({
  father: { ...nm(father, surname), occupation: fatherJob },
  mother: { ...nm(mother, surname), occupation: motherJob },
});
/** A partner: names, date of birth, sex, occupation, address and parents (and condition, in `more`). */
const partner = (
  name: Name,
  dob: string,
  sex: 'Male' | 'Female',
  occupation: string,
  address: string,
  family: Parents,
  more: { condition?: string } = {},
): Partner => ({
  ...name,
  dob,
  sex,
  occupation,
  address,
  ...more,
  ...family,
});

const townHall = (place: Place) => ({
  short: `${place.town} Town Hall`,
  address: `Council Chamber, Town Hall, Market Place, ${place.town}`,
});
const ASSEMBLY_ROOMS = {
  short: 'Kestlewick Assembly Rooms',
  address: 'The Assembly Rooms, 1 Guildhall Square, Kestlewick',
};

const BRADSHAW = { surname: 'Bradshaw', forenames: 'James', dateOfPartnership: '2014-09-27' };
const QUAYLE = { surname: 'Quayle', forenames: 'Gillian', dateOfPartnership: '2010-05-22' };

/** One of three James Bradshaws whose partnerships were formed on the same day. */
const bradshaw = (
  forenames: string,
  partner2: Name,
  p1Dob: string,
  p2Dob: string,
  street: string,
  p2parents: Parents,
) =>
  partnershipRecord({
    date: '2014-09-27',
    place: HALSWORTH,
    venue: townHall(HALSWORTH),
    partner1: partner(
      nm(forenames, 'BRADSHAW'),
      p1Dob,
      'Male',
      'Civil servant',
      at(HALSWORTH, street),
      parents('BRADSHAW', 'Neil', 'Engineer', 'Christine', 'Nurse'),
    ),
    partner2: partner(partner2, p2Dob, 'Male', 'Chef', at(HALSWORTH, street), p2parents),
    witnesses: [nm('Laura', 'Bradshaw'), nm('Kieran', 'Walsh')],
  });

const quayle = {
  date: '2010-05-22',
  place: PENNOCK,
  venue: townHall(PENNOCK),
  partner1: partner(
    nm('Gillian Frances', 'QUAYLE'),
    '1966-11-11',
    'Female',
    'Librarian',
    at(PENNOCK, 'Rock House, Tidal Lane'),
    parents('QUAYLE', 'Norman', 'Lighthouse keeper', 'Phyllis', 'Postmistress'),
  ),
  partner2: partner(
    nm('Morwenna', 'TREMAYNE'),
    '1969-02-02',
    'Female',
    'Potter',
    at(PENNOCK, 'Rock House, Tidal Lane'),
    parents('TREMAYNE', 'Jago', 'Tin miner', 'Kerensa', 'Weaver'),
  ),
  witnesses: [nm('Elowen', 'Tremayne'), nm('Brian', 'Quayle')] as [Name, Name],
};

const stockdale = partnershipRecord({
  date: '2012-06-16',
  place: KESTLEWICK,
  venue: townHall(KESTLEWICK),
  partner1: partner(
    nm('Helen Margaret', 'STOCKDALE'),
    '1971-05-30',
    'Female',
    'Head teacher',
    at(KESTLEWICK, '23 Glebe Road'),
    parents('STOCKDALE', 'Roy', 'Steelworker', 'Brenda', 'Dinner lady'),
  ),
  partner2: partner(
    nm('Ruth Elizabeth', 'AINSWORTH'),
    '1973-09-14',
    'Female',
    'Social worker',
    at(KESTLEWICK, '23 Glebe Road'),
    parents('AINSWORTH', 'Kenneth', 'Insurance clerk', 'Valerie', 'Typist'),
  ),
  witnesses: [nm('Sally', 'Stockdale'), nm('Mark', 'Ainsworth')],
});

export const partnerships = defineScenarios({
  type: 'partnership',
  scenarios: [
    {
      id: 123456789,
      type: 'partnership',
      shows: 'Every field filled, including other names and step-parents',
      search: { surname: 'Kingsley', forenames: 'Oliver', dateOfPartnership: '2008-08-08' },
      record: partnershipRecord({
        date: '2008-08-08',
        place: KESTLEWICK,
        venue: ASSEMBLY_ROOMS,
        partner1: partner(
          nm('Oliver James', 'KINGSLEY'),
          '1972-01-26',
          'Male',
          'Hospital consultant',
          at(KESTLEWICK, 'The Coach House, Ferry Lane'),
          parents('KINGSLEY', 'Geoffrey', 'Vet', 'Margaret', 'Magistrate'),
        ),
        partner2: partner(
          nm('Sebastian Luke', 'ORMEROD'),
          '1975-07-04',
          'Male',
          'Theatre director',
          at(KESTLEWICK, 'The Coach House, Ferry Lane'),
          parents('ORMEROD', 'Clive', 'Bookseller', 'Jean', 'Piano teacher'),
          {
            condition: 'Surviving civil partner',
          },
        ),
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
      }),
    },
    {
      id: 999999001,
      type: 'partnership',
      shows: 'Several matches: one of three partnerships found by the same search',
      search: BRADSHAW,
      record: bradshaw(
        'James Edward',
        nm('Connor', 'MCBRIDE'),
        '1984-03-12',
        '1986-06-01',
        '4 Ashfield Mews',
        parents('MCBRIDE', 'Sean', 'Builder', 'Maureen', 'Cleaner'),
      ),
    },
    {
      id: 999999002,
      type: 'partnership',
      shows: 'Several matches: the second of the three',
      search: BRADSHAW,
      record: bradshaw(
        'James Oliver',
        nm('Imran', 'SHAH'),
        '1979-12-20',
        '1981-04-09',
        '77 Peel Street',
        parents('SHAH', 'Tariq', 'Shopkeeper', 'Nasreen', 'Teaching assistant'),
      ),
    },
    {
      id: 999999003,
      type: 'partnership',
      shows: 'Several matches: the third of the three',
      search: BRADSHAW,
      record: bradshaw(
        'James Patrick',
        nm('Liam', 'FOSTER'),
        '1990-08-08',
        '1989-10-30',
        '2 Lock Keepers Way',
        parents('FOSTER', 'Martin', 'Plumber', 'Angela', 'Office manager'),
      ),
    },
    {
      id: 999999010,
      type: 'partnership',
      shows: 'Single match, found through partner 1',
      search: { surname: 'Stockdale', forenames: 'Helen', dateOfPartnership: '2012-06-16' },
      record: stockdale,
    },
    {
      id: 999999010,
      type: 'partnership',
      shows: 'The same partnership, found through partner 2',
      search: { surname: 'Ainsworth', forenames: 'Ruth', dateOfPartnership: '2012-06-16' },
    },
    {
      id: 999999020,
      type: 'partnership',
      shows: 'Blocked: only the id and the blocked flag are shown',
      search: { surname: 'Penhallow', forenames: 'Marcus', dateOfPartnership: '2007-03-03' },
      record: partnershipRecord({
        date: '2007-03-03',
        place: HALSWORTH,
        blocked: true,
        venue: townHall(HALSWORTH),
        partner1: partner(
          nm('Marcus Edward', 'PENHALLOW'),
          '1960-12-24',
          'Male',
          'Diplomat',
          at(HALSWORTH, 'Elm Lodge, Vicarage Lane'),
          parents('PENHALLOW', 'Edward', 'Naval officer', 'Rosemary', 'Artist'),
        ),
        partner2: partner(
          nm('Anthony', 'GREENHALGH'),
          '1963-04-15',
          'Male',
          'Museum curator',
          at(HALSWORTH, 'Elm Lodge, Vicarage Lane'),
          parents('GREENHALGH', 'Harold', 'Miner', 'Doris', 'Shop assistant'),
        ),
        witnesses: [nm('Philippa', 'Penhallow'), nm('Graham', 'Greenhalgh')],
      }),
    },
    {
      id: 999999040,
      type: 'partnership',
      shows: 'Re-registration chain: the first registration, linked to its replacement',
      search: QUAYLE,
      record: partnershipRecord({ ...quayle, more: { status: { marginalNote: 'Partnership re-registered' } } }),
    },
    {
      id: 999999041,
      type: 'partnership',
      shows: 'Re-registration chain: the re-registration, linked back to the first',
      search: QUAYLE,
      record: partnershipRecord({
        ...quayle,
        partner2: { ...quayle.partner2, occupation: 'Ceramic artist' },
        more: { status: { marginalNote: "Re-registration: partner 2's occupation corrected" } },
      }),
      replaces: 999999040,
    },
    {
      id: 999999050,
      type: 'partnership',
      shows: 'Accented forenames and surname (partner 2)',
      search: { surname: 'Núñez', forenames: 'José', dateOfPartnership: '2016-08-06' },
      record: partnershipRecord({
        date: '2016-08-06',
        place: CWM_ARAN,
        venue: townHall(CWM_ARAN),
        partner1: partner(
          nm('Aled', 'ROBERTS'),
          '1980-01-19',
          'Male',
          'Harpist',
          at(CWM_ARAN, 'Hafod, Lôn Goed'),
          parents('ROBERTS', 'Iwan', 'Shepherd', 'Nia', 'Nurse'),
        ),
        partner2: partner(
          nm('José Andrés', 'NÚÑEZ'),
          '1982-11-03',
          'Male',
          'Restaurateur',
          at(CWM_ARAN, 'Hafod, Lôn Goed'),
          parents('NÚÑEZ', 'Andrés', 'Fisherman', 'Begoña', 'Seamstress'),
        ),
        witnesses: [nm('Mererid', 'Roberts'), nm('Inés', 'Núñez')],
      }),
    },
    {
      id: 999999051,
      type: 'partnership',
      shows: 'Hyphenated forename and surname (partner 1)',
      search: { surname: 'Weston-Hyde', forenames: 'Mary-Claire', dateOfPartnership: '2015-02-14' },
      record: partnershipRecord({
        date: '2015-02-14',
        place: KESTLEWICK,
        venue: ASSEMBLY_ROOMS,
        partner1: partner(
          nm('Mary-Claire', 'WESTON-HYDE'),
          '1977-06-21',
          'Female',
          'Barrister',
          at(KESTLEWICK, '5 Minster Yard'),
          parents('WESTON-HYDE', 'Julian', 'Judge', 'Penelope', 'Charity director'),
        ),
        partner2: partner(
          nm('Grace', 'ADEYEMI'),
          '1979-03-08',
          'Female',
          'Radiographer',
          at(KESTLEWICK, '5 Minster Yard'),
          parents('ADEYEMI', 'Olusegun', 'Accountant', 'Funmilayo', 'Midwife'),
        ),
        witnesses: [nm('Anne-Sophie', 'Weston-Hyde'), nm('Tunde', 'Adeyemi')],
      }),
    },
    {
      id: 999999052,
      type: 'partnership',
      shows: 'Surname with an apostrophe (partner 2)',
      search: { surname: "D'Arcy", forenames: 'Fiona', dateOfPartnership: '2018-11-10' },
      record: partnershipRecord({
        date: '2018-11-10',
        place: PENNOCK,
        venue: townHall(PENNOCK),
        partner1: partner(
          nm('Karen Louise', 'MABBOTT'),
          '1958-09-09',
          'Female',
          'Retired police inspector',
          at(PENNOCK, '1 Coastguard Row'),
          parents('MABBOTT', 'Dennis', 'Docker', 'Sheila', 'Machinist'),
          {
            condition: 'Previous civil partnership dissolved',
          },
        ),
        partner2: partner(
          nm('Fiona Kathleen', "D'ARCY"),
          '1961-12-12',
          'Female',
          'Yoga teacher',
          at(PENNOCK, '1 Coastguard Row'),
          parents("D'ARCY", 'Liam', 'Farmer', 'Bridget', 'Housekeeper'),
        ),
        witnesses: [nm('Nuala', "D'Arcy"), nm('Stephen', 'Mabbott')],
      }),
    },
  ],
  verificationSources: {
    required: {
      partner1Surname: 'partner1.surname',
      partner1Forenames: 'partner1.forenames',
      partner2Surname: 'partner2.surname',
      partner2Forenames: 'partner2.forenames',
      dateOfPartnership: 'dateOfPartnership',
    },
    optional: { systemNumber: 'id', placeOfPartnership: 'placeOfPartnership.short' },
  },
});
