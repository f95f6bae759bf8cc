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

const informant = (which: string) =>
  group(`The ${which} informant: the person who registered the birth`, {
    forenames: text("Informant's forenames"),
    surname: text("Informant's surname"),
    address: text("Informant's address"),
    qualification: basic(text('How the informant is qualified to register, e.g. Mother')),
    signature: text("Informant's signature as written in the register"),
    signatureIsMark: flag('Whether the informant signed with a mark'),
  });

const parent = (who: 'mother' | 'father') => ({
  prefix: basic(text(`The ${who}'s title or prefix`)),
  forenames: basic(text(`The ${who}'s forenames`)),
  surname: basic(text(`The ${who}'s surname`)),
  suffix: basic(text(`The ${who}'s suffix`)),
  birthplace: basic(text(`Where the ${who} was born`)),
  occupation: text(`The ${who}'s occupation`),
  aliases: list('full', `Other names the ${who} has used`, alias),
});

export const birth = defineRecord({
  name: 'birth',
  order: 1,
  title: 'Birth registration',
  noun: 'birth',
  blockedFlag: 'status.blocked',
  search: {
    dateParam: 'dateOfBirth',
    dateDescription: "The child's date of birth, YYYY-MM-DD",
    description: "Finds births by the child's surname, forenames (a word prefix) and date of birth.",
    parties: [
      {
        surname: 'child.surname',
        forenames: 'child.forenames',
        dates: ['child.dateOfBirth'],
        rowColumns: { surname: 'surname', forenames: 'forenames', dates: ['date_of_birth'] },
      },
    ],
  },
  verification: {
    date: { param: 'dateOfBirth', path: 'child.dateOfBirth', description: "The child's date of birth, YYYY-MM-DD" },
    names: [{ surname: 'surname', forenames: 'forenames', who: 'the child' }],
    details: {
      systemNumber: systemNumberDetail,
      placeOfBirth: {
        compare: 'place',
        paths: ['child.birthplace'],
        description: 'Where the child was born, as registered',
      },
      motherForenames: { compare: 'forenames', paths: ['mother.forenames'], description: "The mother's forenames" },
      motherSurname: { compare: 'name', paths: ['mother.surname'], description: "The mother's surname" },
      motherMaidenSurname: {
        compare: 'name',
        paths: ['mother.maidenSurname'],
        description: "The mother's maiden surname",
      },
      fatherForenames: { compare: 'forenames', paths: ['father.forenames'], description: "The father's forenames" },
      fatherSurname: { compare: 'name', paths: ['father.surname'], description: "The father's surname" },
      registrationDistrict: {
        compare: 'place',
        paths: ['registrar.district'],
        description: 'The registration district',
      },
    },
    cancelledFlag: 'status.cancelled',
    replacedBy: 'nextRegistration',
  },
  changes: { correction: 'status.correction', marginalNote: 'status.marginalNote' },
  fields: {
    id: always(integer('System number of the registration')),
    date: basic(isoDate('Date the birth was registered')),
    entryNumber: integer('Entry number in the register'),
    registrar: group('Where and by whom the birth was registered', {
      signature: text("Registrar's signature"),
      designation: text("Registrar's designation"),
      superintendentSignature: text("Superintendent registrar's signature"),
      superintendentDesignation: text("Superintendent registrar's designation"),
      subdistrict: basic(text('Registration sub-district')),
      district: basic(text('Registration district')),
      administrativeArea: basic(text('Administrative area')),
    }),
    informant1: informant('first'),
    informant2: informant('second'),
    child: group('The child whose birth was registered', {
      originalPrefix: text("The child's prefix as first registered"),
      prefix: basic(text("The child's prefix")),
      forenames: basic(text("The child's forenames")),
      originalForenames: text("The child's forenames as first registered, when they were later changed"),
      surname: basic(text("The child's surname")),
      originalSuffix: text("The child's suffix as first registered"),
      suffix: basic(text("The child's suffix")),
      dateOfBirth: basic(isoDate("The child's date of birth")),
      sex: basic(text('Male, Female or Indeterminate')),
      birthplace: basic(text('Where the child was born')),
    }),
    mother: group("The child's mother", {
      ...parent('mother'),
      address: text("The mother's usual address, where it differs from the birthplace"),
      maidenSurname: basic(text("The mother's maiden surname")),
      marriageSurname: basic(text("The mother's surname at marriage, where it differs from her maiden surname")),
    }),
    father: group("The child's father", {
      ...parent('father'),
      deceased: flag('Whether the father had died before the birth was registered'),
    }),
    dateOfDeclaration: isoDate('Date of a declaration made for the registration'),
    dateOfStatutoryDeclarationOfParentage: isoDate('Date of a statutory declaration of parentage'),
    statutoryDeclarationOfParentage: text('Statutory declaration of parentage'),
    dateOfNameUpdate: isoDate("Date the child's name was updated"),
    status: group('Flags that qualify the registration', {
      blocked: always(flag('Whether the record is blocked; a blocked record shows only its id and this flag')),
      marginalNote: basic(text('Marginal note on the registration, or None')),
      cancelled: basic(flag('Whether the registration was cancelled')),
      correction: basic(text('Correction made to the registration, or None')),
      nameUpdate: text("Update to the child's name, or None"),
      onAuthorityOfRegistrarGeneral: flag('Whether registered on the authority of the Registrar General'),
      potentiallyFictitious: basic(flag('Whether the birth may be fictitious')),
      praOrCourtOrder: text('Parental responsibility agreement or court order, or None'),
      reregistration: basic(text('Why the birth was re-registered, or None')),
    }),
    previousRegistration: link('The registration this one replaced'),
    nextRegistration: link('The registration that replaced this one'),
  },
});
