/**
 * Births, tuned by hand: a mother of the child's community, a father named or not as the decade
 * had it, surnames passed down as couples married or did not, hospital births becoming the rule,
 * and the re-registrations that add a father or follow the parents' marriage.
 */
import { birth } from '../../records/types/birth.ts';
import { LATEST, iso, parseDay, yearOf, EARLIEST_BIRTH } from '../days.ts';
import { BLOCKED_SHARE, type TunedKind, alias, none } from '../kind.ts';
import {
  type Name,
  firstWord,
  forenames,
  gendered,
  occupation,
  official,
  pickCommunity,
  prefix,
  signed,
  suffix,
  surname,
} from '../people.ts';
import { address, birthplace, pickPlace } from '../places.ts';
import type { Random } from '../random.ts';
import { nullGroup } from '../shape.ts';
import type { Rec } from '../values.ts';

const BIRTH_RANGE = [EARLIEST_BIRTH, LATEST - 42] as const;

const NO_INFORMANT = nullGroup(birth.fields.informant2);
const NO_FATHER = nullGroup(birth.fields.father);

const BIRTH_NOTES = [
  'Adoption order made',
  'Parental order made',
  'Entry made on the authority of the Registrar General',
];
const BIRTH_CORRECTIONS = [
  "Clerical: spelling of the child's forename corrected",
  "Clerical: spelling of the mother's birthplace corrected",
  "Clerical: father's occupation corrected",
  "Correction of the child's sex",
  "Clerical: mother's maiden surname corrected",
];
const NAME_UPDATES = [
  'Forenames changed within twelve months of registration',
  'Name given in baptism substituted',
  'Forename added within twelve months of registration',
];
const PR_ORDERS = [
  'Parental responsibility agreement lodged',
  'Parental responsibility order made',
  'Residence order made',
];

function registrationDelay(r: Random): number {
  // Most births are registered within a few weeks; the law allows 42 days.
  return r.chance(0.9) ? r.bell(2, 30) : r.int(0, 42);
}

function build(r: Random, id: number, days: readonly [number, number]): Rec {
  const place = pickPlace(r);
  const born = r.int(days[0], days[1]);
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
    else if (u < 0.62 && !family.includes('-') && !maiden.includes('-') && family !== maiden)
      childFamily = `${maiden}-${family}`;
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
        ? [alias(motherForenames, gendered(maiden, false))]
        : [alias(firstWord(motherForenames), motherSurname)]
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
      aliases: r.chance(0.01) ? [alias(firstWord(fatherForenames), family)] : [],
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
  const informant2 =
    fatherNamed && motherInforms && r.chance(0.65) ? informant(father as Name, 'Father') : NO_INFORMANT;

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
      forenames: finalForenames,
      originalForenames: nameUpdated ? childForenames : null,
      surname: gendered(childFamily, male),
      dateOfBirth: iso(born),
      sex,
      birthplace: inHospital ? place.hospital : home,
    },
    mother,
    father,
    dateOfDeclaration: declared ? iso(Math.max(born, registered - r.int(1, 14))) : null,
    dateOfStatutoryDeclarationOfParentage: parentage ? iso(Math.max(born, registered - r.int(0, 20))) : null,
    statutoryDeclarationOfParentage: parentage
      ? r.pick([
          'Declaration of parentage made jointly by both parents',
          'Statutory declaration of paternity made by the father',
        ])
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
  };
}

function reregister(r: Random, first: Rec, id: number): [Rec, Rec] {
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
  const mother: Rec =
    reason === 'Parents married after the birth'
      ? { ...first.mother, surname: gendered(father.surname, false) }
      : first.mother;
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

export const births: TunedKind = {
  description: birth,
  build,
  reregister,
  dates: BIRTH_RANGE,
  // The generator gives no child a title or suffix, as first registered or since.
  unrecorded: ['child.originalPrefix', 'child.prefix', 'child.originalSuffix', 'child.suffix'],
};
