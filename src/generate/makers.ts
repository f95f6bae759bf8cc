/**
 * The generator's pools as value makers, keyed by what a description's text leaf holds
 * (records/define.ts `Holds`): the values made from a description alone (values.ts) for a type
 * without a tuned builder, a leaf its builder does not know, and the mock's fully filled record,
 * are drawn as the tuned builders draw theirs.
 */
import { ENGLISH, forenames, occupation, surname } from './people.ts';
import { address, pickPlace } from './places.ts';
import type { ValueMakers } from './values.ts';

export const VALUE_MAKERS: ValueMakers = {
  forenames: (r, male, bornIn) => forenames(r, ENGLISH, male, bornIn),
  surname: (r) => surname(r, ENGLISH),
  place: (r) => pickPlace(r).town,
  address: (r) => address(r, pickPlace(r)),
  occupation: (r, year, male) => occupation(r, year, male),
};
