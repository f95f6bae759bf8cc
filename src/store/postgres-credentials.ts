/**
 * The status list entries in PostgreSQL (`credential_status`, migration 12). A credential is made
 * invalid by the trigger on `feed_event`, in the very transaction that records why, so every
 * process serving the lists sees it at its next read, whichever process loaded the change.
 */
import { randomInt } from 'node:crypto';
import type { SqlDriver } from './driver.ts';
import { type CredentialStatuses, LIST_SIZE } from '../model/credentials.ts';
import { TRIES_PER_LIST } from './memory-credentials.ts';

export function createPostgresCredentialStatuses(driver: SqlDriver): CredentialStatuses {
  let current: number | undefined;
  return {
    async allocate(type, id) {
      current ??= Number(
        (await driver.query<{ list: number }>('SELECT coalesce(max(list), 1) AS list FROM credential_status'))[0].list,
      );
      for (;;) {
        const list = current;
        for (let i = 0; i < TRIES_PER_LIST; i++) {
          const idx = randomInt(LIST_SIZE);
          const rows = await driver.query(
            'INSERT INTO credential_status (list, idx, record_type, record_id) VALUES ($1, $2, $3, $4) ON ' +
              'CONFLICT DO NOTHING RETURNING idx',
            [list, idx, type, id],
          );
          if (rows.length) return { list, idx };
        }
        // Another process may have moved on already; the next list is the later of the two.
        current = Math.max(current, list + 1);
      }
    },
    async invalid(list) {
      if (!Number.isSafeInteger(list) || list < 1 || list > 2 ** 31 - 1) return undefined;
      const rows = await driver.query<{ idx: number; invalid: boolean }>(
        '(SELECT idx, invalid FROM credential_status WHERE list = $1 AND invalid) UNION ALL (SELECT -1, false ' +
          'FROM credential_status WHERE list = $1 LIMIT 1)',
        [list],
      );
      if (rows.length === 0) return undefined;
      return rows.filter((row) => row.invalid).map((row) => row.idx);
    },
  };
}
