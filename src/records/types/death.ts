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
  type: text('How the other name relates to the registered one: "formerly known as" or "otherwise"'),
  prefix: text('Title or prefix, e.g. Mrs'),
  forenames: text('Forenames'),
  surname: text('Surname'),
  suffix: text('Suffix, e.g. Jr'),
};

const relative = (who: 'mother' | 'father') =>
  group(`The deceased's ${who}, where recorded (usually for a child's death)`, {
    name: text(`The ${who}'s full name, as one string`),
    occupation: text(`The ${who}'s occupation`),
  });

export const death = defineRecord({
  name: 'death',
  order: 2,
  title: 'Death registration',
  noun: 'death',
  blockedFlag: 'status.blocked',
  search: {
    dateParam: 'date',
    dateDescription: "The deceased's date of birth or date of death, YYYY-MM-DD",
    description:
      "Finds deaths by the deceased's surname, forenames (a word prefix) and a date that is either the date of " +
      'birth or the date of death.',
    parties: [
      {
        surname: 'deceased.surname',
        forenames: 'deceased.forenames',
        dates: ['deceased.dateOfBirth', 'deceased.dateOfDeath'],
        rowColumns: { surname: 'surname', forenames: 'forenames', dates: ['date_of_birth', 'date_of_death'] },
      },
    ],
  },
  verification: {
    date: { param: 'dateOfDeath', path: 'deceased.dateOfDeath', description: 'The date of death, YYYY-MM-DD' },
    names: [{ surname: 'surname', forenames: 'forenames', who: 'the deceased' }],
    details: {
      systemNumber: systemNumberDetail,
      dateOfBirth: {
        compare: 'date',
        paths: ['deceased.dateOfBirth'],
        description: "The deceased's date of birth, YYYY-MM-DD",
      },
      placeOfDeath: {
        compare: 'place',
        paths: ['deceased.deathplace'],
        description: 'Where the death happened, as registered',
      },
      registrationDistrict: {
        compare: 'place',
        paths: ['registrar.district'],
        description: 'The registration district',
      },
    },
    replacedBy: 'nextRegistration',
  },
  changes: { correction: 'status.correction', marginalNote: 'status.marginalNote' },
  fields: {
    id: always(integer('System number of the registration')),
    date: basic(isoDate('Date the death was registered')),
    entryNumber: integer('Entry number in the register'),
    deceased: group('The person whose death was registered', {
      prefix: text("The deceased's title or prefix"),
      forenames: basic(text("The deceased's forenames")),
      surname: basic(text("The deceased's surname")),
      suffix: text("The deceased's suffix"),
      maidenSurname: text("The deceased's surname before marriage"),
      dateOfBirth: basic(isoDate("The deceased's date of birth, when known")),
      dateOfDeath: basic(isoDate('Date of death')),
      dateOfDeathQualifier: basic(text('Qualifies an uncertain date of death, e.g. On or about')),
      birthplace: text('Where the deceased was born'),
      deathplace: text('Where the death happened'),
      ageAtDeath: text('Age at death as written in the register, e.g. 82 years or 3 hours'),
      sex: basic(text("The deceased's sex")),
      address: basic(text("The deceased's usual address")),
      occupation: text("The deceased's occupation"),
      retired: flag('Whether the deceased had retired from that occupation'),
      causeOfDeath: text('Cause of death as certified'),
      certifiedBy: text('Who certified the cause of death'),
      relationshipToPartner: text('How the deceased is described in relation to a partner, e.g. Husband of'),
      aliases: list('basic', 'Other names by which the deceased was known', alias),
    }),
    registrar: group('Where and by whom the death was registered', {
      signature: text("Registrar's signature"),
      designation: text("Registrar's designation"),
      subdistrict: basic(text('Registration sub-district')),
      district: basic(text('Registration district')),
      administrativeArea: basic(text('Administrative area')),
    }),
    informant: group('The person who registered the death', {
      forenames: text("Informant's forenames"),
      surname: text("Informant's surname"),
      address: text("Informant's address"),
      qualification: text('How the informant is qualified to register, e.g. Daughter, Present at the death'),
      signature: text("Informant's signature as written in the register"),
    }),
    partner: group("The deceased's spouse or civil partner, where recorded", {
      name: text("The partner's full name, as one string"),
      occupation: text("The partner's occupation"),
      retired: flag('Whether the partner had retired from that occupation'),
    }),
    mother: relative('mother'),
    father: relative('father'),
    coroner: group('The coroner, when the death was reported to one', {
      name: text("Coroner's name"),
      designation: text("Coroner's designation"),
      area: text("Coroner's area"),
    }),
    inquestDate: isoDate('Date of the inquest, if one was held'),
    status: group('Flags that qualify the registration', {
      blocked: always(flag('Whether the record is blocked; a blocked record shows only its id and this flag')),
      correction: basic(text('Kind of correction made to the registration, or None')),
      marginalNote: basic(text('Marginal note on the registration, or None')),
      onAuthorityOfRegistrarGeneral: flag('Whether registered on the authority of the Registrar General'),
    }),
    previousRegistration: link('The registration this one replaced'),
    nextRegistration: link('The registration that replaced this one'),
  },
});
