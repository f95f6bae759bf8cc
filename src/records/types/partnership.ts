import {
  always,
  basic,
  defineRecord,
  flag,
  group,
  integer,
  isoDate,
  link,
  list,
  systemNumberDetail,
  text,
} from '../define.ts';

const alias = {
  prefix: text('Title or prefix, e.g. Ms'),
  forenames: text('Forenames'),
  surname: text('Surname'),
  suffix: text('Suffix, e.g. Jr'),
};

const partner = (n: 1 | 2) =>
  group(`Partner ${n}`, {
    prefix: text(`Partner ${n}'s title or prefix`),
    forenames: basic(text(`Partner ${n}'s forenames`)),
    surname: basic(text(`Partner ${n}'s surname`)),
    suffix: text(`Partner ${n}'s suffix`),
    address: basic(text(`Partner ${n}'s address at the time of the partnership`)),
    dob: isoDate(`Partner ${n}'s date of birth`),
    sex: text(`Partner ${n}'s sex`),
    aliases: list('full', `Other names partner ${n} has used`, alias),
    occupation: text(`Partner ${n}'s occupation`),
    retired: flag(`Whether partner ${n} had retired from that occupation`),
    condition: text(`Partner ${n}'s condition before the partnership, e.g. Single or Surviving civil partner`),
    signature: text(`Partner ${n}'s signature as written in the register`),
  });

const parent = (who: 'father' | 'mother', n: 1 | 2) =>
  group(`The ${who} of partner ${n}`, {
    surname: text(`Surname of partner ${n}'s ${who}`),
    forenames: text(`Forenames of partner ${n}'s ${who}`),
    occupation: text(`Occupation of partner ${n}'s ${who}`),
    retired: flag(`Whether partner ${n}'s ${who} had retired from that occupation`),
    designation: text(
      `How partner ${n}'s ${who} is described, e.g. ${
        who === 'father' ? 'Father or Stepfather' : 'Mother or ' + 'Adoptive mother'
      }`,
    ),
    deceased: flag(`Whether partner ${n}'s ${who} had died before the partnership was formed`),
  });

const witness = (n: 1 | 2) =>
  group(`Witness number ${n}`, {
    forename: text(`Forenames of witness ${n}`),
    surname: text(`Surname of witness ${n}`),
  });

export const partnership = defineRecord({
  name: 'partnership',
  order: 4,
  title: 'Civil partnership registration',
  noun: 'civil partnership',
  blockedFlag: 'status.blocked',
  search: {
    dateParam: 'dateOfPartnership',
    dateDescription: 'The date the civil partnership was formed, YYYY-MM-DD',
    description:
      'Finds civil partnerships by the surname and forenames (a word prefix) of either partner, and the date the ' +
      'partnership was formed.',
    parties: [
      {
        surname: 'partner1.surname',
        forenames: 'partner1.forenames',
        dates: ['dateOfPartnership'],
        rowColumns: { surname: 'partner1_surname', forenames: 'partner1_forenames', dates: ['date_of_partnership'] },
      },
      {
        surname: 'partner2.surname',
        forenames: 'partner2.forenames',
        dates: ['dateOfPartnership'],
        rowColumns: { surname: 'partner2_surname', forenames: 'partner2_forenames', dates: ['date_of_partnership'] },
      },
    ],
  },
  verification: {
    date: {
      param: 'dateOfPartnership',
      path: 'dateOfPartnership',
      description: 'The date the civil partnership was formed, YYYY-MM-DD',
    },
    names: [
      { surname: 'partner1Surname', forenames: 'partner1Forenames', who: 'one partner' },
      { surname: 'partner2Surname', forenames: 'partner2Forenames', who: 'the other partner' },
    ],
    // No registration district: a civil partnership registration records none.
    details: {
      systemNumber: systemNumberDetail,
      placeOfPartnership: {
        compare: 'place',
        paths: ['placeOfPartnership.short', 'placeOfPartnership.address'],
        description: 'Where the civil partnership was formed: its short name or its full address, as registered',
      },
    },
    replacedBy: 'nextRegistration',
  },
  changes: { marginalNote: 'status.marginalNote' },
  fields: {
    id: always(integer('System number of the registration')),
    dateOfPartnership: basic(isoDate('Date the civil partnership was formed')),
    placeOfPartnership: group('Where the civil partnership was formed', {
      address: basic(text('Full address of the place')),
      short: basic(text('Short name of the place')),
    }),
    registrar: group('The registrar who registered the civil partnership', {
      signature: text("Registrar's signature"),
    }),
    partner1: partner(1),
    partner2: partner(2),
    fatherOfPartner1: parent('father', 1),
    motherOfPartner1: parent('mother', 1),
    fatherOfPartner2: parent('father', 2),
    motherOfPartner2: parent('mother', 2),
    witness1: witness(1),
    witness2: witness(2),
    status: group('Flags that qualify the registration', {
      blocked: always(flag('Whether the record is blocked; a blocked record shows only its id and this flag')),
      marginalNote: basic(text('Marginal note on the registration, or None')),
    }),
    previousRegistration: link('The registration this one replaced'),
    nextRegistration: link('The registration that replaced this one'),
  },
});
