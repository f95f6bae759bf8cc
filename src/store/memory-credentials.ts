/**
 * The status list entries in the process's memory, for the embedded store. Credentials are made
 * invalid by `revoke`, which the memory change feed calls in the same synchronous step as it
 * appends the events that say why (backend/memory.ts), as PostgreSQL's trigger does in the
 * transaction that inserts them.
 */
import { randomInt } from 'node:crypto';
import { type CredentialStatuses, LIST_SIZE, type StatusEntry } from '../model/credentials.ts';

/** Tries at random indexes before a list counts as full enough to open the next (it fills to about three quarters). */
export const TRIES_PER_LIST = 8;

interface MemoryCredentialStatuses extends CredentialStatuses {
  /** Makes every credential of these registrations invalid. */
  revoke(type: string, ids: readonly number[]): void;
}

export function createMemoryCredentialStatuses(): MemoryCredentialStatuses {
  const lists: { taken: Set<number>; invalid: Set<number> }[] = [];
  const byRecord = new Map<string, StatusEntry[]>();
  const listAt = (list: number) => (lists[list - 1] ??= { taken: new Set(), invalid: new Set() });
  let current = 1;
  return {
    async allocate(type, id) {
      for (;;) {
        const { taken } = listAt(current);
        for (let i = 0; i < TRIES_PER_LIST; i++) {
          const idx = randomInt(LIST_SIZE);
          if (taken.has(idx)) continue;
          taken.add(idx);
          const entry = { list: current, idx };
          const key = `${type}:${id}`;
          const entries = byRecord.get(key);
          if (entries) entries.push(entry);
          else byRecord.set(key, [entry]);
          return entry;
        }
        current++;
      }
    },
    async invalid(list) {
      const found = Number.isSafeInteger(list) ? lists[list - 1] : undefined;
      return found ? [...found.invalid] : undefined;
    },
    revoke(type, ids) {
      for (const id of ids)
        for (const entry of byRecord.get(`${type}:${id}`) ?? []) listAt(entry.list).invalid.add(entry.idx);
    },
  };
}
