/**
 * The register's counts of names (RecordReader.registerCounts) as writes change them: a record
 * counts once for each distinct surname of its search keys and each distinct first word of their
 * forenames (none for keys without forenames). The embedded store's index keeps its counts in a
 * tally (suggestion-index.ts); a load of new records into PostgreSQL tallies theirs as it reads them
 * and adds the tally to the table (postgres-write.ts). PostgreSQL's other writes count the same way
 * over the rows they write, in SQL, and a test holds each load's counts to an empty register's.
 */
import { firstWord } from '../match/names.ts';
import type { SearchKey } from '../model/records.ts';

function bump(map: Map<string, number>, name: string, by: number): void {
  const n = (map.get(name) ?? 0) + by;
  if (n !== 0) map.set(name, n);
  else map.delete(name);
}

export class NameTally {
  /** How many records have each surname, and each first forename (a name whose count is 0 is not held). */
  readonly surnames = new Map<string, number>();
  readonly forenames = new Map<string, number>();

  /**
   * A record's names counted in (1) or out (-1). A record has a few keys, most one or two: each name
   * is looked for among the keys before it rather than gathered in a set (a load tallies every record
   * it writes, and the embedded store's index every record it holds).
   */
  count(keys: readonly SearchKey[], by: 1 | -1): void {
    for (let i = 0; i < keys.length; i++) {
      const { surname, forenames } = keys[i];
      let j = 0;
      while (j < i && keys[j].surname !== surname) j++;
      if (j === i) bump(this.surnames, surname, by);
      if (!forenames) continue;
      const forename = firstWord(forenames);
      j = 0;
      while (j < i && !(keys[j].forenames && firstWord(keys[j].forenames) === forename)) j++;
      if (j === i) bump(this.forenames, forename, by);
    }
  }

  clear(): void {
    this.surnames.clear();
    this.forenames.clear();
  }
}
