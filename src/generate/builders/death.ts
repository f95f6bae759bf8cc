/**
 * Deaths, tuned by hand: ages mostly old, causes by age (and the pandemic years), the marital
 * condition and partner, a coroner for the deaths reported to one, the informant a parent, partner,
 * son or daughter as families register, and the re-registrations that follow an inquest.
 */
import { death } from '../../records/types/death.ts';
import { EARLIEST_BIRTH, LATEST, ageOn, dayNumber, iso, parseDay, yearOf, yearsBefore } from '../days.ts';
import { BLOCKED_SHARE, type TunedKind, alias, none, plural } from '../kind.ts';
import { CARE_HOME_NAMES, CARE_HOMES } from '../place-names.ts';
import { CAUSES_OF_DEATH } from '../register-words.ts';
import {
  ENGLISH,
  coronerName,
  doctor,
  forename,
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
import { address, birthplace, nearby, pickPlace } from '../places.ts';
import type { Random } from '../random.ts';
import { nullGroup } from '../shape.ts';
import type { Rec } from '../values.ts';

const DEATH_RANGE = [dayNumber(1975, 1, 1), LATEST - 14] as const;
const COVID = [dayNumber(2020, 3, 1), dayNumber(2022, 12, 31)] as const;

const NO_PARTNER = nullGroup(death.fields.partner);
const NO_RELATIVE = nullGroup(death.fields.father);
const NO_CORONER = nullGroup(death.fields.coroner);
const NO_INFORMANT = nullGroup(death.fields.informant);
const CORONER_DESIGNATIONS = ['Senior Coroner', 'Area Coroner', 'Assistant Coroner'];

const DEATH_CORRECTIONS = [
  'Clerical: place of birth corrected',
  "Clerical: spelling of the deceased's forename corrected",
  "Clerical: deceased's occupation corrected",
  'Correction of the date of birth',
  "Clerical: informant's address corrected",
];
const DEATH_NOTES = [
  'Entry corrected on the authority of the coroner',
  'Cause of death amended after post-mortem',
  'Entry made on the authority of the Registrar General',
];
const CHILD_INFORMANTS = ['Son', 'Daughter', 'Son', 'Daughter', 'Daughter'];
const OTHER_INFORMANTS = [
  'Nephew',
  'Niece',
  'Grandson',
  'Granddaughter',
  'Brother',
  'Sister',
  'Friend',
  'Present at the death',
  'Causing the disposal',
  'Administrator',
];
const INQUEST_CAUSES = [
  'Fall; accident',
  'Drowning; accident',
  'Road traffic collision; accident',
  'Mixed drug toxicity; misadventure',
  'Hanging; suicide',
  'Industrial disease',
  'Open conclusion',
];
const MALE_RELATIVES = new Set(['Nephew', 'Grandson', 'Brother']);
const FEMALE_RELATIVES = new Set(['Niece', 'Granddaughter', 'Sister']);
const QUALIFIERS = ['Found dead on', 'On or about'];

function causeOfDeath(r: Random, age: number, days: number, died: number): string {
  if (age < 1) return r.pick(days < 28 ? CAUSES_OF_DEATH.neonatal : CAUSES_OF_DEATH.infant);
  if (age >= 50 && died >= COVID[0] && died <= COVID[1] && r.chance(0.1)) return 'COVID-19';
  if (age < 40) return r.pick(CAUSES_OF_DEATH.young);
  if (age < 70) return r.pick(CAUSES_OF_DEATH.adult);
  return r.pick(CAUSES_OF_DEATH.elderly);
}

function build(r: Random, id: number, days: readonly [number, number]): Rec {
  const place = pickPlace(r);
  const died = r.int(days[0], days[1]);
  const diedIn = yearOf(died);

  // Age: a few infants and young people, most deaths in old age.
  const u = r.float();
  let born: number;
  let ageText: string;
  if (u < 0.006) {
    const days = r.chance(0.35) ? 0 : r.int(1, 364);
    born = died - days;
    ageText =
      days === 0
        ? r.chance(0.2)
          ? plural(r.int(5, 55), 'minute')
          : plural(r.int(1, 23), 'hour')
        : days < 28
          ? plural(days, 'day')
          : plural(Math.max(1, Math.floor(days / 30.44)), 'month');
  } else {
    let years = u < 0.04 ? r.int(1, 39) : u < 0.2 ? r.int(40, 64) : r.bell(60, 106);
    const oldest = diedIn - 1901;
    if (years > oldest) years = r.int(60, oldest);
    born = Math.max(EARLIEST_BIRTH, yearsBefore(r, died, years));
    ageText = plural(ageOn(born, died), 'year');
  }
  const age = ageOn(born, died);
  const bornIn = yearOf(born);
  const dobKnown = age < 16 || !r.chance(0.01);
  if (!dobKnown) ageText = `About ${Math.max(20, Math.round(age / 5) * 5)} years`;

  const male = r.chance(0.49);
  const community = pickCommunity(r, place.district.wales, bornIn);
  const names = forenames(r, community, male, bornIn);
  const base = surname(r, community);
  const family = gendered(base, male);
  const SURNAME = family.toUpperCase();
  const home = r.chance(0.002) ? 'No fixed abode' : address(r, place);

  // Marital condition, and the partner named in the register.
  const m = r.float();
  const condition =
    age < 18
      ? 'child'
      : age >= 75
        ? m < 0.5
          ? 'widowed'
          : m < 0.85
            ? 'married'
            : m < 0.92
              ? 'divorced'
              : 'single'
        : age >= 50
          ? m < 0.6
            ? 'married'
            : m < 0.72
              ? 'widowed'
              : m < 0.88
                ? 'divorced'
                : 'single'
          : m < 0.45
            ? 'married'
            : m < 0.55
              ? 'divorced'
              : 'single';
  const everMarried = condition === 'married' || condition === 'widowed' || condition === 'divorced';
  let partner: Rec = NO_PARTNER;
  let relationship: string | null = null;
  let partnerForenames = '';
  let partnerFamily = '';
  if (condition === 'married' || condition === 'widowed') {
    const civil = diedIn >= 2006 && r.chance(0.01);
    const partnerMale = civil ? male : !male;
    partnerForenames = forenames(r, community, partnerMale, bornIn);
    partnerFamily = civil ? gendered(surname(r, community), partnerMale) : gendered(base, partnerMale);
    partner = {
      name: `${partnerForenames} ${partnerFamily.toUpperCase()}`,
      occupation: occupation(r, bornIn + 40, partnerMale),
      retired: age >= 65 && r.chance(0.8),
    };
    relationship = civil
      ? 'Civil partner of'
      : condition === 'married'
        ? male
          ? 'Husband of'
          : 'Wife of'
        : male
          ? 'Widower of'
          : 'Widow of';
  }
  const maiden =
    !male && everMarried && r.chance(0.9)
      ? gendered(surname(r, r.chance(0.85) ? community : pickCommunity(r, false, bornIn)), false).toUpperCase()
      : null;

  // How the death was certified and registered.
  const c = r.float();
  const inquest = age >= 1 && c < 0.02;
  const postMortem = !inquest && c < 0.12;
  const coronerArea = place.district.area;
  const coroner =
    inquest || postMortem
      ? { name: coronerName(r), designation: r.pick(CORONER_DESIGNATIONS), area: coronerArea }
      : NO_CORONER;
  const inquestDay = inquest ? Math.min(LATEST, died + r.int(20, 240)) : 0;
  const registered = Math.min(
    LATEST,
    inquest ? inquestDay + r.int(1, 10) : postMortem ? died + r.int(5, 35) : died + r.bell(1, 14),
  );
  const certifiedBy = inquest
    ? `Certificate received from ${coroner.name}, ${coroner.designation} for ${coronerArea}. Inquest ` +
      `held ${iso(inquestDay)}`
    : postMortem
      ? `Certificate received from ${coroner.name}, ${coroner.designation} for ${coronerArea}, after post-mortem ` +
        `without inquest`
      : doctor(r);
  const cause = inquest ? r.pick(INQUEST_CAUSES) : causeOfDeath(r, age, died - born, died);

  // Where: hospital, home, care home.
  const w = r.float();
  const deathplace =
    w < 0.46
      ? place.hospital
      : w < 0.7 && home !== 'No fixed abode'
        ? home
        : w < 0.92
          ? `${r.pick(CARE_HOME_NAMES)} ${r.pick(CARE_HOMES)}, ${nearby(r, place).postTown}`
          : address(r, place);

  // The informant: a parent for a child, else the partner, a son or daughter, someone else.
  let informant: Rec = NO_INFORMANT;
  let mother: Rec = NO_RELATIVE;
  let father: Rec = NO_RELATIVE;
  if (age < 16) {
    const motherForenames = forenames(r, community, false, bornIn - 28);
    const fatherForenames = forenames(r, community, true, bornIn - 30);
    const motherFamily = gendered(base, false);
    const fatherFamily = gendered(base, true);
    mother = {
      name: `${motherForenames} ${motherFamily.toUpperCase()}`,
      occupation: r.chance(0.8) ? occupation(r, diedIn, false) : null,
    };
    father = r.chance(0.9)
      ? { name: `${fatherForenames} ${fatherFamily.toUpperCase()}`, occupation: occupation(r, diedIn, true) }
      : NO_RELATIVE;
    const byMother = r.chance(0.75) || father === NO_RELATIVE;
    const [names, parentFamily] = byMother ? [motherForenames, motherFamily] : [fatherForenames, fatherFamily];
    informant = {
      forenames: names,
      surname: parentFamily.toUpperCase(),
      address: home,
      qualification: byMother ? 'Mother' : 'Father',
      signature: signed(names, parentFamily),
    };
  } else if (!inquest || r.chance(0.2)) {
    const i = r.float();
    let who: { forenames: string; surname: string; qualification: string; address: string };
    if (condition === 'married' && i < 0.45) {
      who = {
        forenames: partnerForenames,
        surname: partnerFamily,
        qualification: relationship === 'Civil partner of' ? 'Surviving civil partner' : male ? 'Widow' : 'Widower',
        address: home,
      };
    } else if (i < 0.85 && age >= 35) {
      const qualification = r.pick(CHILD_INFORMANTS);
      const son = qualification === 'Son';
      const childSurname = son || r.chance(0.35) ? gendered(base, son) : gendered(surname(r, community), son);
      who = {
        forenames: forenames(r, community, son, bornIn + 28),
        surname: childSurname,
        qualification: r.chance(0.25) ? `${qualification}, present at the death` : qualification,
        address: address(r, nearby(r, place)),
      };
    } else {
      const qualification = r.pick(OTHER_INFORMANTS);
      const relative =
        qualification !== 'Friend' &&
        qualification !== 'Causing the disposal' &&
        qualification !== 'Administrator' &&
        qualification !== 'Present at the death';
      const informantMale =
        MALE_RELATIVES.has(qualification) || (!FEMALE_RELATIVES.has(qualification) && r.chance(0.45));
      who = {
        forenames: forenames(
          r,
          relative ? community : pickCommunity(r, place.district.wales, 1970),
          informantMale,
          bornIn + 20,
        ),
        surname: gendered(relative && r.chance(0.5) ? base : surname(r, relative ? community : ENGLISH), informantMale),
        qualification,
        address: address(r, nearby(r, place)),
      };
    }
    informant = {
      forenames: who.forenames,
      surname: who.surname.toUpperCase(),
      address: who.address,
      qualification: who.qualification,
      signature: signed(who.forenames, who.surname),
    };
  }

  const aliases: Rec[] = [];
  if (r.chance(0.015)) {
    if (maiden) aliases.push({ type: 'formerly known as', ...alias(names, maiden) });
    else {
      const space = names.indexOf(' ');
      aliases.push({
        type: 'otherwise',
        ...alias(space < 0 ? forename(r, community, male, bornIn) : names.slice(space + 1), SURNAME),
      });
    }
  }

  const q = r.float();
  return {
    id,
    date: iso(registered),
    entryNumber: r.int(1, 800),
    deceased: {
      prefix: prefix(r, male, 0.02),
      forenames: names,
      surname: SURNAME,
      suffix: suffix(r, 0.004),
      maidenSurname: maiden,
      dateOfBirth: dobKnown ? iso(born) : null,
      dateOfDeath: iso(died),
      dateOfDeathQualifier: q < 0.008 ? QUALIFIERS[0] : q < 0.013 ? QUALIFIERS[1] : null,
      birthplace: dobKnown
        ? birthplace(r, community, place, bornIn)
        : r.chance(0.6)
          ? 'Not known'
          : birthplace(r, community, place, bornIn),
      deathplace,
      ageAtDeath: ageText,
      sex: male ? 'Male' : 'Female',
      address: home,
      occupation:
        age < 16
          ? null
          : !male && bornIn < 1940 && r.chance(0.3)
            ? 'Housewife'
            : occupation(r, Math.min(diedIn, bornIn + 40), male),
      retired: age >= 16 ? age >= 65 && r.chance(0.85) : null,
      causeOfDeath: cause,
      certifiedBy,
      relationshipToPartner: relationship,
      aliases,
    },
    registrar: {
      signature: official(r),
      designation: r.chance(0.85) ? 'Registrar' : 'Deputy Registrar',
      subdistrict: place.town,
      district: place.district.name,
      administrativeArea: place.district.area,
    },
    informant,
    partner,
    mother,
    father,
    coroner,
    inquestDate: inquest ? iso(inquestDay) : null,
    status: {
      blocked: r.chance(BLOCKED_SHARE),
      correction: none(r, 0.01, DEATH_CORRECTIONS),
      marginalNote: none(r, 0.004, DEATH_NOTES),
      onAuthorityOfRegistrarGeneral: r.chance(0.002),
    },
  };
}

function reregister(r: Random, first: Rec, id: number): [Rec, Rec] {
  const died = parseDay(first.deceased.dateOfDeath);
  const inquestDay = Math.min(LATEST, Math.max(died, parseDay(first.date)) + r.int(20, 200));
  const registered = Math.min(LATEST, inquestDay + r.int(1, 10));
  const area = first.registrar.administrativeArea;
  const coroner =
    first.coroner.name === null
      ? { name: coronerName(r), designation: r.pick(CORONER_DESIGNATIONS), area }
      : first.coroner;
  const second: Rec = {
    ...first,
    id,
    date: iso(registered),
    entryNumber: r.int(1, 800),
    deceased: {
      ...first.deceased,
      causeOfDeath: r.pick(INQUEST_CAUSES),
      certifiedBy:
        `Certificate received from ${coroner.name}, ${coroner.designation} for ${coroner.area}. ` +
        `Inquest held ${iso(inquestDay)}`,
    },
    coroner,
    inquestDate: iso(inquestDay),
    status: {
      ...first.status,
      blocked: r.chance(BLOCKED_SHARE),
      marginalNote: 'None',
      onAuthorityOfRegistrarGeneral: r.chance(0.5),
    },
  };
  return [
    {
      ...first,
      deceased: { ...first.deceased, causeOfDeath: 'Pending further inquiry' },
      status: { ...first.status, marginalNote: 'Death re-registered after inquest' },
    },
    second,
  ];
}

export const deaths: TunedKind = { description: death, build, reregister, dates: DEATH_RANGE };
