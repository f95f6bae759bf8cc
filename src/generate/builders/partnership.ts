/**
 * Civil partnerships, tuned by hand: from 21 December 2005, many long-standing couples in the
 * first years, opposite-sex partnerships from the end of 2019, the parents of both partners, and
 * the re-registrations that correct a date of birth.
 */
import { partnership } from '../../records/types/partnership.ts';
import { LATEST, ageOn, dayNumber, iso, parseDay, yearOf, yearsBefore } from '../days.ts';
import { BLOCKED_SHARE, type TunedKind, alias, none } from '../kind.ts';
import { VENUES } from '../place-names.ts';
import {
  type Spouse,
  firstWord,
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
import { STREET_TABLE, address, nearby, pickPlace } from '../places.ts';
import type { Random } from '../random.ts';
import { nullGroup } from '../shape.ts';
import type { Rec } from '../values.ts';

/** Civil partnerships could be formed in England and Wales from 21 December 2005. */
const PARTNERSHIP_RANGE = [dayNumber(2005, 12, 21), LATEST] as const;
const OPPOSITE_SEX_PARTNERSHIPS = dayNumber(2019, 12, 31);
const FIRST_YEARS_END = dayNumber(2008, 12, 31);

const NO_PARENT = nullGroup(partnership.fields.fatherOfPartner1);
const PARTNERSHIP_NOTES = [
  'Entry corrected on the authority of the Registrar General',
  'Civil partnership converted into a marriage',
  'Partnership dissolved',
];
const PARTNER_CONDITIONS = [
  'Divorced',
  'Previous marriage dissolved',
  'Widowed',
  'Surviving civil partner',
  'Previous civil partnership dissolved',
];

function parentOfPartner(r: Random, who: Spouse, father: boolean, atYear: number): Rec {
  if (r.chance(father ? 0.03 : 0.01)) return NO_PARENT;
  const d = r.float();
  const family = father
    ? r.chance(0.9)
      ? who.family
      : surname(r, who.community)
    : r.chance(0.6)
      ? who.family
      : surname(r, who.community);
  return {
    surname: gendered(family, father).toUpperCase(),
    forenames: forenames(r, who.community, father, who.bornIn - 30),
    occupation: father || r.chance(0.85) ? occupation(r, Math.min(atYear, who.bornIn + 25), father) : null,
    retired: who.age >= 35 && r.chance(Math.min(0.9, (who.age - 30) / 25)),
    designation:
      d < 0.8
        ? null
        : d < 0.96
          ? father
            ? 'Father'
            : 'Mother'
          : d < 0.98
            ? father
              ? 'Adoptive father'
              : 'Adoptive mother'
            : father
              ? 'Stepfather'
              : 'Stepmother',
    deceased: r.chance(Math.max(0.02, Math.min(0.95, (who.age - 20) / 55))),
  };
}

function partner(r: Random, who: Spouse, formed: number, home: string): Rec {
  const year = yearOf(formed);
  const names = forenames(r, who.community, who.male, who.bornIn);
  const family = gendered(who.family, who.male);
  const SURNAME = family.toUpperCase();
  return {
    prefix: prefix(r, who.male, 0.03),
    forenames: names,
    surname: SURNAME,
    suffix: suffix(r, 0.004),
    address: home,
    dob: iso(yearsBefore(r, formed, who.age)),
    sex: who.male ? 'Male' : 'Female',
    aliases: r.chance(0.015) ? [alias(firstWord(names), SURNAME)] : [],
    occupation: occupation(r, year, who.male),
    retired: who.age >= 65 && r.chance(0.8),
    condition: r.chance(0.88)
      ? 'Single'
      : year >= 2007
        ? r.pick(PARTNER_CONDITIONS)
        : r.pick(PARTNER_CONDITIONS.slice(0, 3)),
    signature: signed(names, family),
  };
}

function build(r: Random, id: number, days: readonly [number, number]): Rec {
  const place = pickPlace(r);
  // Many long-standing couples registered in the first years.
  const formed =
    r.chance(0.3) && days[0] <= FIRST_YEARS_END
      ? r.int(days[0], Math.min(days[1], FIRST_YEARS_END))
      : r.int(days[0], days[1]);
  const year = yearOf(formed);
  const wales = place.district.wales;
  const oppositeSex = formed >= OPPOSITE_SEX_PARTNERSHIPS && r.chance(0.7);
  const firstMale = r.chance(oppositeSex ? 0.5 : year < 2014 ? 0.58 : 0.45);
  const secondMale = oppositeSex ? !firstMale : firstMale;
  const age1 = r.bell(21, year < 2010 ? 76 : 66);
  const age2 = Math.min(90, Math.max(18, age1 + r.int(-12, 12)));
  const c1 = pickCommunity(r, wales, year - age1);
  const c2 = r.chance(0.75) ? c1 : pickCommunity(r, wales, year - age2);
  const p1: Spouse = { male: firstMale, age: age1, bornIn: year - age1, community: c1, family: surname(r, c1) };
  const p2: Spouse = { male: secondMale, age: age2, bornIn: year - age2, community: c2, family: surname(r, c2) };
  const home1 = address(r, place);
  const home2 = r.chance(0.7) ? home1 : address(r, nearby(r, place));
  const street = r.weighted(STREET_TABLE);
  const venue = r.chance(0.5) ? r.pick(VENUES) : null;
  const witness = (): Rec => {
    const c = r.chance(0.5) ? c1 : c2;
    const male = r.chance(0.5);
    return { forename: forename(r, c, male, year - 35), surname: gendered(surname(r, c), male) };
  };

  return {
    id,
    dateOfPartnership: iso(formed),
    placeOfPartnership: venue
      ? { address: `${venue}, ${street}, ${place.postTown}`, short: `${venue}, ${place.town}` }
      : { address: `Register Office, ${street}, ${place.postTown}`, short: `${place.district.name} Register Office` },
    registrar: { signature: official(r) },
    partner1: partner(r, p1, formed, home1),
    partner2: partner(r, p2, formed, home2),
    fatherOfPartner1: parentOfPartner(r, p1, true, year),
    motherOfPartner1: parentOfPartner(r, p1, false, year),
    fatherOfPartner2: parentOfPartner(r, p2, true, year),
    motherOfPartner2: parentOfPartner(r, p2, false, year),
    witness1: witness(),
    witness2: witness(),
    status: { blocked: r.chance(BLOCKED_SHARE), marginalNote: none(r, 0.003, PARTNERSHIP_NOTES) },
  };
}

function reregister(r: Random, first: Rec, id: number): [Rec, Rec] {
  const which = r.chance(0.5) ? 'partner1' : 'partner2';
  const party = first[which];
  const formed = parseDay(first.dateOfPartnership);
  const dob = parseDay(party.dob);
  const shift = r.int(1, 400);
  // Corrected by up to a year or so, never making the partner under 18.
  const corrected = r.chance(0.5) && ageOn(dob + shift, formed) >= 18 ? dob + shift : dob - shift;
  const second: Rec = {
    ...first,
    id,
    [which]: { ...party, dob: iso(corrected) },
    status: {
      blocked: r.chance(BLOCKED_SHARE),
      marginalNote: `Re-registration: ${which === 'partner1' ? 'partner 1' : 'partner 2'}'s date of birth corrected`,
    },
  };
  return [{ ...first, status: { ...first.status, marginalNote: 'Civil partnership re-registered' } }, second];
}

export const partnerships: TunedKind = { description: partnership, build, reregister, dates: PARTNERSHIP_RANGE };
