/**
 * Marriages, tuned by hand: most on a Saturday, ages by the decade and by whether either had
 * married before, civil ceremonies becoming the rule, the church or venue and who solemnised it,
 * two or more witnesses of the families, and the re-registrations that correct an age.
 */
import { marriage } from '../../records/types/marriage.ts';
import { LATEST, dayNumber, iso, weekday, yearOf } from '../days.ts';
import { BLOCKED_SHARE, type TunedKind, alias, none } from '../kind.ts';
import { CHURCHES, type Denomination, VENUES } from '../place-names.ts';
import {
  ENGLISH,
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

const MARRIAGE_RANGE = [dayNumber(1930, 1, 1), LATEST] as const;

const NO_WITNESS = nullGroup(marriage.fields.witness12);
const NO_MINISTER = nullGroup(marriage.fields.minister2);
const NO_PARENT = nullGroup(marriage.fields.fatherOfBride);
/** The register's witness boxes, in order: as many as the description has. */
const WITNESSES = Object.keys(marriage.fields).filter((key) => /^witness\d+$/.test(key));
const ANGLICAN = ['Vicar', 'Rector', 'Curate', 'Priest in charge'];

/** Who solemnised a religious marriage, as they sign and are designated. */
function officiant(r: Random, denomination: Denomination): Rec {
  switch (denomination) {
    case 'anglican':
      return { signature: `Revd ${official(r)}`, designation: r.pick(ANGLICAN) };
    case 'catholic':
    case 'orthodox':
      return { signature: `Fr ${official(r)}`, designation: 'Priest' };
    case 'free church':
      return { signature: `Revd ${official(r)}`, designation: 'Minister' };
    case 'welsh chapel':
      return { signature: `Parch. ${official(r)}`, designation: 'Minister' };
    default:
      return { signature: official(r), designation: 'Authorised person' };
  }
}
const MARRIAGE_NOTES = [
  'Entry corrected on the authority of the Registrar General',
  "Clerical: bride's father's occupation corrected",
  'Marriage void: decree of nullity',
];

/** The father of a bride, groom or partner, as the register describes him. */
function fatherOf(r: Random, who: Spouse, atYear: number): Rec {
  if (r.chance(0.025)) return NO_PARENT;
  const d = r.float();
  return {
    forenames: forenames(r, who.community, true, who.bornIn - 30),
    surname: (r.chance(0.92) ? gendered(who.family, true) : surname(r, who.community)).toUpperCase(),
    occupation: occupation(r, Math.min(atYear, who.bornIn + 25), true),
    retired: who.age >= 35 && r.chance(Math.min(0.9, (who.age - 30) / 25)),
    designation: d < 0.85 ? null : d < 0.97 ? 'Father' : d < 0.985 ? 'Adoptive father' : 'Stepfather',
    deceased: r.chance(Math.max(0.02, Math.min(0.95, (who.age - 20) / 55))),
  };
}

function spouse(
  r: Random,
  year: number,
  male: boolean,
  age: number,
  community: number,
  family: string,
  condition: string,
  home: string,
): Rec {
  const bornIn = year - age;
  const names = forenames(r, community, male, bornIn);
  const SURNAME = family.toUpperCase();
  return {
    prefix: prefix(r, male, 0.02),
    forenames: names,
    surname: SURNAME,
    suffix: suffix(r, 0.003),
    age,
    occupation: male || r.chance(year < 1970 ? 0.5 : 0.9) ? occupation(r, year, male) : null,
    retired: age >= 65 && r.chance(0.8),
    address: home,
    aliases: r.chance(0.012) ? [alias(firstWord(names), SURNAME)] : [],
    condition,
    signature: signed(names, family),
    signatureIsMark: year < 1950 && r.chance(0.01),
  };
}

function condition(r: Random, year: number, male: boolean, again: boolean): string {
  if (!again) return year < 1980 ? (male ? 'Bachelor' : 'Spinster') : 'Single';
  if (r.chance(0.35)) return year < 1980 ? (male ? 'Widower' : 'Widow') : 'Widowed';
  return year >= 1980 && r.chance(0.3) ? 'Previous marriage dissolved' : 'Divorced';
}

function build(r: Random, id: number, days: readonly [number, number]): Rec {
  const place = pickPlace(r);
  let day = r.int(days[0], days[1]);
  if (r.chance(0.55)) {
    // Most weddings are on a Saturday: the next, or the last when the next is after the window.
    const saturday = day + ((6 - weekday(day) + 7) % 7);
    if (saturday <= days[1]) day = saturday;
    else if (saturday - 7 >= days[0]) day = saturday - 7;
  }
  const year = yearOf(day);
  const wales = place.district.wales;

  const groomAgain = r.chance(year < 1970 ? 0.08 : 0.25);
  const brideAgain = groomAgain ? r.chance(0.6) : r.chance(0.05);
  const groomAge = groomAgain ? r.bell(26, 78) : year < 1975 ? r.bell(19, 34) : r.bell(21, 44);
  const brideAge = Math.max(18, groomAge - r.int(-3, 7));
  const groomCommunity = pickCommunity(r, wales, year - groomAge);
  const brideCommunity = r.chance(0.85) ? groomCommunity : pickCommunity(r, wales, year - brideAge);
  const groomFamily = surname(r, groomCommunity);
  const brideFamily = surname(r, brideCommunity);
  // A bride marrying again is registered under her former married name.
  const brideSurname = gendered(
    brideAgain && r.chance(0.7) ? surname(r, r.chance(0.8) ? brideCommunity : ENGLISH) : brideFamily,
    false,
  );

  const groomHome = address(r, place);
  const brideHome = r.chance(year >= 1980 ? 0.6 : 0.1) ? groomHome : address(r, nearby(r, place));
  const groom = spouse(
    r,
    year,
    true,
    groomAge,
    groomCommunity,
    groomFamily,
    condition(r, year, true, groomAgain),
    groomHome,
  );
  const bride = spouse(
    r,
    year,
    false,
    brideAge,
    brideCommunity,
    brideSurname,
    condition(r, year, false, brideAgain),
    brideHome,
  );
  const fatherOfGroom = fatherOf(
    r,
    { male: true, age: groomAge, bornIn: year - groomAge, community: groomCommunity, family: groomFamily },
    year,
  );
  const fatherOfBride = fatherOf(
    r,
    { male: false, age: brideAge, bornIn: year - brideAge, community: brideCommunity, family: brideFamily },
    year,
  );

  // Where, and who solemnised it.
  const civil = r.chance(year < 1960 ? 0.3 : year < 1990 ? 0.5 : year < 2010 ? 0.65 : 0.78);
  const street = r.weighted(STREET_TABLE);
  let placeOfMarriage: Rec;
  let minister1: Rec;
  const registrarSignature = official(r);
  if (civil) {
    if (year >= 1995 && r.chance(0.55)) {
      const venue = r.pick(VENUES);
      placeOfMarriage = {
        address: `${venue}, ${street}, ${place.postTown}`,
        parish: null,
        short: `${venue}, ${place.town}`,
      };
    } else {
      placeOfMarriage = {
        address: `Register Office, ${street}, ${place.postTown}`,
        parish: null,
        short: `${place.district.name} Register Office`,
      };
    }
    minister1 = { signature: registrarSignature, designation: 'Registrar' };
  } else {
    const [church, dedication, denomination] =
      wales && r.chance(0.3)
        ? CHURCHES[r.int(15, 16)]
        : CHURCHES[Math.min(r.int(0, 12), r.int(0, CHURCHES.length - 1))];
    placeOfMarriage = {
      address: `${church}, ${street}, ${place.postTown}`,
      parish: dedication ? `${dedication}, ${place.town}` : null,
      short: `${church}, ${place.town}`,
    };
    minister1 = officiant(r, denomination);
  }
  const minister2 =
    !civil && r.chance(0.03)
      ? { signature: `Revd ${official(r)}`, designation: r.pick(['Assistant curate', 'Deacon', 'Minister']) }
      : NO_MINISTER;

  const witnessCount = 2 + (r.chance(0.08) ? r.int(1, 4) : 0) + (r.chance(0.002) ? 6 : 0);
  const witness = (n: number): Rec => {
    if (n > witnessCount) return NO_WITNESS;
    const w = r.float();
    const community = w < 0.5 ? groomCommunity : brideCommunity;
    const family = w < 0.3 ? groomFamily : w < 0.5 ? brideFamily : surname(r, community);
    const male = r.chance(0.5);
    return {
      signature: signed(forename(r, community, male, year - 30), gendered(family, male)),
      signatureIsMark: year < 1950 && r.chance(0.01),
    };
  };
  const superintendent = civil || r.chance(0.1);

  return {
    id,
    entryNumber: r.int(1, 250),
    dateOfMarriage: iso(day),
    placeOfMarriage,
    registrar: {
      signature: registrarSignature,
      designation: r.chance(0.85) ? 'Registrar' : 'Deputy Registrar',
      superintendentSignature: superintendent ? official(r) : null,
      superintendentDesignation: superintendent ? 'Superintendent Registrar' : null,
      district: place.district.name,
      administrativeArea: place.district.area,
    },
    groom,
    bride,
    fatherOfGroom,
    fatherOfBride,
    ...Object.fromEntries(WITNESSES.map((key, i) => [key, witness(i + 1)])),
    minister1,
    minister2,
    status: { blocked: r.chance(BLOCKED_SHARE), marginalNote: none(r, 0.003, MARRIAGE_NOTES) },
  };
}

function reregister(r: Random, first: Rec, id: number): [Rec, Rec] {
  const whose = r.chance(0.5) ? 'bride' : 'groom';
  const party = first[whose];
  const second: Rec = {
    ...first,
    id,
    entryNumber: r.int(1, 250),
    [whose]: { ...party, age: party.age + (r.chance(0.5) || party.age <= 18 ? 1 : -1) },
    status: { blocked: r.chance(BLOCKED_SHARE), marginalNote: `Re-registration: ${whose}'s age corrected` },
  };
  return [{ ...first, status: { ...first.status, marginalNote: 'Marriage re-registered' } }, second];
}

export const marriages: TunedKind = { description: marriage, build, reregister, dates: MARRIAGE_RANGE };
