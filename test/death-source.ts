/**
 * Deaths for the feed, webhook and store tests that need events rather than particular people: only the
 * ids matter to them, so every detail but the surname is shared, and the surname follows the id so that
 * no two are the same person.
 */
import type { Source } from '../src/load/loader.ts';

export const deaths = (ids: readonly number[]): Source => ({
  name: 'deaths',
  size: undefined,
  open: () => [
    ids
      .map((id) =>
        JSON.stringify({
          id,
          deceased: { forenames: 'A', surname: `B${id}`, dateOfDeath: '2024-03-01', dateOfBirth: '1940-01-01' },
          status: { blocked: false },
        }),
      )
      .join('\n'),
  ],
});
