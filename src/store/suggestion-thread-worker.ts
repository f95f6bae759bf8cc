/**
 * The close-match thread (suggestion-thread.ts): holds the indexes, built and followed from
 * PostgreSQL through connections of its own (followed-suggestion-index.ts) or fed by the process,
 * and answers each close match asked of it as the route's `closeMatches` would over the indexes, or
 * nothing while they are being built.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeMatches } from '../match/suggest.ts';
import {
  type FollowedSuggestionIndexes,
  NotHeld,
  followSuggestionIndexes,
  heldReader,
} from './followed-suggestion-index.ts';
import { type SuggestionIndex, createSuggestionIndex } from './suggestion-index.ts';
import { openPostgres } from './pg-driver.ts';
import { createPostgresEvents } from './postgres-events.ts';
import type { FedRecords, FromThread, SuggestionThreadData, ToThread } from './suggestion-thread.ts';

const port = parentPort!;
const post = (message: FromThread) => port.postMessage(message);
const { connection, types } = workerData as SuggestionThreadData;

type Held = Pick<FollowedSuggestionIndexes, 'candidates' | 'counts' | 'reached' | 'stop'> & {
  feed?(records: FedRecords): void;
};

/** The indexes of PostgreSQL's search keys, followed from its change feed. */
function followed(): Held {
  const driver = openPostgres(connection!);
  const indexes = followSuggestionIndexes(
    driver,
    createPostgresEvents(driver, types).feed,
    types,
    (error) => post({ error: error.message }),
    (state) => post({ state }),
  );
  return {
    candidates: indexes.candidates,
    counts: indexes.counts,
    reached: indexes.reached,
    async stop() {
      await indexes.stop();
      await driver.close();
    },
  };
}

/**
 * Indexes of the records the process sends, answering from the start: messages come in the order
 * they were sent, so every close match asked comes after the records written before it.
 */
function fed(): Held {
  const indexes = new Map<string, { index: SuggestionIndex; records: number }>(
    types.map((type) => [type, { index: createSuggestionIndex(), records: 0 }]),
  );
  post({ state: { built: true, position: 0 } });
  return {
    candidates: (type, passes) => indexes.get(type)?.index.candidates(passes),
    counts(type, surname, forename) {
      const held = indexes.get(type);
      return held && { records: held.records, ...held.index.nameCounts(surname, forename) };
    },
    feed({ type, records, keyed }) {
      const held = indexes.get(type);
      if (!held) return;
      for (const [id, keys] of keyed) {
        if (keys.length) held.index.add(id, keys);
        else held.index.remove(id);
      }
      held.records = records;
    },
    reached: async () => {},
    stop: async () => {},
  };
}

const held = connection ? followed() : fed();
const reader = heldReader(held);

port.on('message', async (message: ToThread) => {
  if ('stop' in message) {
    await held.stop();
    port.close();
  } else if ('feed' in message) {
    held.feed?.(message.feed);
  } else if ('reached' in message) {
    await held.reached(message.reached);
    post({ id: message.id });
  } else {
    const { type, query, options } = message.find;
    try {
      post({ id: message.id, answer: await closeMatches(reader, type, query, options) });
    } catch (error) {
      post(error instanceof NotHeld ? { id: message.id } : { id: message.id, failure: (error as Error).message });
    }
  }
});
