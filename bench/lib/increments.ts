/**
 * The files of new births the scale bench loads into each full register and into an empty one
 * (bench/scale.ts), and bench/key-insert.ts into a register of its own: made here once, so that
 * both load the same births.
 */
import { iso } from '../../src/generate/days.ts';
import { datesOf } from '../../src/generate/records.ts';

/**
 * The increments' births take ids above any register's (at most 100,000,000 births from
 * DEFAULT_FIRST_ID), so loaded into a register they are new registrations, as a week's load is.
 */
const INCREMENT_FIRST_ID = 200_000_000;

/**
 * England and Wales register about 600,000 births a year, some 1,650 a day; the law allows 42 days
 * from the birth to register it.
 */
const BIRTHS_A_DAY = 1650;
const DAYS_TO_REGISTER = 42;

/**
 * The two files each register takes, of the same size: `latest`, the births of the days the register
 * takes to register that many (and the 42 before), as an operator's weekly or monthly file holds
 * them; `allYears`, the same number born on any day the register holds, the keys of each landing
 * anywhere in their indexes.
 */
export type IncrementName = 'latest' | 'allYears';
export const INCREMENTS: readonly IncrementName[] = ['latest', 'allYears'];
/** Each file as a table of the benches names it. */
export const INCREMENT_TITLES: Readonly<Record<IncrementName, string>> = {
  latest: 'the latest births',
  allYears: 'births of all years',
};

/**
 * The first id of an increment's births: the two files' ids follow each other, and a round's files
 * (the scale bench loads each file's kind several times) follow the round before's.
 */
export const incrementFirstId = (name: IncrementName, births: number, round = 0): number =>
  INCREMENT_FIRST_ID + (round * INCREMENTS.length + INCREMENTS.indexOf(name)) * births;

/**
 * `lev-api generate`'s arguments for an increment of `births` (its seed from the run's, and from
 * its round after the first), without `--out`.
 */
export function incrementArgs(name: IncrementName, births: number, seed: string, round = 0): string[] {
  const ownSeed = round ? `${seed}-${name}-${round}` : `${seed}-${name}`;
  const args = ['generate', '--type', 'birth', '--count', String(births), '--seed', ownSeed];
  if (name === 'latest') {
    const last = datesOf('birth').days[1];
    args.push('--from', iso(last - Math.ceil(births / BIRTHS_A_DAY) - DAYS_TO_REGISTER));
  }
  return [...args, '--first-id', String(incrementFirstId(name, births, round))];
}
