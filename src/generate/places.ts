/**
 * Where generated events happen and people live: registration districts weighted by population,
 * their towns (each with its hospital, made once), addresses, and birthplaces at home or abroad.
 */
import {
  BUILDINGS,
  CARE_HOME_NAMES,
  DISTRICTS,
  type District,
  HOSPITALS,
  HOUSE_NAMES,
  STREETS,
  WELSH_STREETS,
} from './place-names.ts';
import { POOLS } from './people.ts';
import { Random, Weighted } from './random.ts';

const DISTRICT_TABLE = new Weighted(DISTRICTS.map((d) => [d, d.weight] as const));
export const STREET_TABLE = Weighted.ranked(STREETS, 15);

export interface Place {
  readonly district: District;
  /** Town and registration sub-district. */
  readonly town: string;
  /** The town as written in an address. */
  readonly postTown: string;
  readonly hospital: string;
}

/** Every town of every district, with its hospital, built once. */
const PLACES: ReadonlyMap<District, readonly Place[]> = new Map(
  DISTRICTS.map((district) => [
    district,
    district.towns.map((town) => {
      const r = Random.fromString(`hospital:${town}`);
      const postTown = district.area === 'Greater London' ? `${town}, London` : town;
      const hospital = district.wales && r.chance(0.4) ? `Ysbyty ${town}` : `${town} ${r.pick(HOSPITALS)}`;
      return { district, town, postTown, hospital: `${hospital}, ${postTown}` };
    }),
  ]),
);

export const pickPlace = (r: Random, district = r.weighted(DISTRICT_TABLE)): Place => r.pick(PLACES.get(district)!);

export function address(r: Random, place: Place): string {
  const street = place.district.wales && r.chance(0.3) ? r.pick(WELSH_STREETS) : r.weighted(STREET_TABLE);
  const u = r.float();
  if (u < 0.09)
    return `Flat ${r.int(1, 48)}, ${r.pick(CARE_HOME_NAMES)} ${r.pick(BUILDINGS)}, ${street}, ${place.postTown}`;
  if (u < 0.12) return `${r.pick(HOUSE_NAMES)}, ${street}, ${place.postTown}`;
  const v = r.float();
  return `${1 + Math.floor(v * v * 160)} ${street}, ${place.postTown}`;
}

/** Somewhere in the same district, or elsewhere in England and Wales. */
export const nearby = (r: Random, place: Place): Place =>
  r.chance(0.75) ? pickPlace(r, place.district) : pickPlace(r);

/** Where a member of `community` born in `bornIn` was born: near `place`, or abroad as often as their community was. */
export function birthplace(r: Random, community: number, place: Place, bornIn: number): string {
  const pools = POOLS[community];
  if (r.chance(bornIn < 1990 || community <= 2 ? pools.abroadShare : pools.abroadShare * 0.6))
    return r.pick(pools.abroad);
  return nearby(r, place).town;
}
