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
  prefix: text('Title or prefix, e.g. Mr'),
  forenames: text('Forenames'),
  surname: text('Surname'),
  suffix: text('Suffix, e.g. Jr'),
};

const spouse = (who: 'groom' | 'bride') =>
  group(`The ${who}`, {
    prefix: text(`The ${who}'s title or prefix`),
    forenames: basic(text(`The ${who}'s forenames`)),
    surname: basic(text(`The ${who}'s surname`)),
    suffix: text(`The ${who}'s suffix`),
    age: integer(`The ${who}'s age in years at the marriage`),
    occupation: text(`The ${who}'s occupation`),
    retired: flag(`Whether the ${who} had retired from that occupation`),
    address: basic(text(`The ${who}'s address at the time of the marriage`)),
    aliases: list('full', `Other names the ${who} has used`, alias),
    condition: text(`The ${who}'s condition before the marriage, e.g. Single, Widowed, Divorced`),
    signature: text(`The ${who}'s signature as written in the register`),
    signatureIsMark: flag(`Whether the ${who} signed with a mark`),
  });

const father = (whose: 'groom' | 'bride') =>
  group(`The ${whose}'s father`, {
    forenames: text(`Forenames of the ${whose}'s father`),
    surname: text(`Surname of the ${whose}'s father`),
    occupation: text(`Occupation of the ${whose}'s father`),
    retired: flag(`Whether the ${whose}'s father had retired from that occupation`),
    designation: text(`How the ${whose}'s father is described, e.g. Father or Adoptive father`),
    deceased: flag(`Whether the ${whose}'s father had died before the marriage`),
  });

const witness = (n: number) =>
  group(`Witness number ${n}, when there was one`, {
    signature: text(`Signature of witness ${n} as written in the register`),
    signatureIsMark: flag(`Whether witness ${n} signed with a mark`),
  });

const minister = (n: number) =>
  group(n === 1 ? 'The person who solemnised the marriage' : 'A second person who solemnised the marriage', {
    signature: text('Signature as written in the register'),
    designation: text('Designation, e.g. Vicar or Registrar'),
  });

export const marriage = defineRecord({
  name: 'marriage',
  order: 3,
  title: 'Marriage registration',
  noun: 'marriage',
  blockedFlag: 'status.blocked',
  search: {
    dateParam: 'dateOfMarriage',
    dateDescription: 'The date of the marriage, YYYY-MM-DD',
    description:
      'Finds marriages by the surname and forenames (a word prefix) of either the bride or the groom, and the ' +
      'date of the marriage.',
    parties: [
      {
        surname: 'bride.surname',
        forenames: 'bride.forenames',
        dates: ['dateOfMarriage'],
        rowColumns: { surname: 'bride_surname', forenames: 'bride_forenames', dates: ['date_of_marriage'] },
      },
      {
        surname: 'groom.surname',
        forenames: 'groom.forenames',
        dates: ['dateOfMarriage'],
        rowColumns: { surname: 'groom_surname', forenames: 'groom_forenames', dates: ['date_of_marriage'] },
      },
    ],
  },
  verification: {
    date: { param: 'dateOfMarriage', path: 'dateOfMarriage', description: 'The date of the marriage, YYYY-MM-DD' },
    names: [
      { surname: 'partner1Surname', forenames: 'partner1Forenames', who: 'one party to the marriage (bride or groom)' },
      { surname: 'partner2Surname', forenames: 'partner2Forenames', who: 'the other party' },
    ],
    details: {
      systemNumber: systemNumberDetail,
      placeOfMarriage: {
        compare: 'place',
        paths: ['placeOfMarriage.short', 'placeOfMarriage.address'],
        description: 'Where the marriage took place: its short name or its full address, as registered',
      },
      registrationDistrict: {
        compare: 'place',
        paths: ['registrar.district'],
        description: 'The registration district',
      },
    },
    replacedBy: 'nextRegistration',
  },
  changes: { marginalNote: 'status.marginalNote' },
  fields: {
    id: always(integer('System number of the registration')),
    entryNumber: integer('Entry number in the register'),
    dateOfMarriage: basic(isoDate('Date of the marriage')),
    placeOfMarriage: group('Where the marriage took place', {
      address: basic(text('Full address of the place of marriage')),
      parish: basic(text('Parish, for a church marriage')),
      short: basic(text('Short name of the place of marriage')),
    }),
    registrar: group('Where and by whom the marriage was registered', {
      signature: text("Registrar's signature"),
      designation: text("Registrar's designation"),
      superintendentSignature: text("Superintendent registrar's signature"),
      superintendentDesignation: text("Superintendent registrar's designation"),
      district: basic(text('Registration district')),
      administrativeArea: basic(text('Administrative area')),
    }),
    groom: spouse('groom'),
    bride: spouse('bride'),
    fatherOfGroom: father('groom'),
    fatherOfBride: father('bride'),
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
    minister1: minister(1),
    minister2: minister(2),
    status: group('Flags that qualify the registration', {
      blocked: always(flag('Whether the record is blocked; a blocked record shows only its id and this flag')),
      marginalNote: basic(text('Marginal note on the registration, or None')),
    }),
    previousRegistration: link('The registration this one replaced'),
    nextRegistration: link('The registration that replaced this one'),
  },
});
