/**
 * The close-match thread (suggestion-thread.ts): opens its own connections, builds and follows the
 * indexes (followed-suggestion-index.ts), and answers each close match asked of it as the route's
 * `closeMatches` would over the indexes, or nothing while they are being built.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeMatches } from '../match/suggest.ts';
import { NotHeld, followSuggestionIndexes, heldReader } from './followed-suggestion-index.ts';
import { openPostgres } from './pg-driver.ts';
import { createPostgresEvents } from './postgres-events.ts';
import type { FromThread, SuggestionThreadData, ToThread } from './suggestion-thread.ts';

const port = parentPort!;
const post = (message: FromThread) => port.postMessage(message);
const { connection, types } = workerData as SuggestionThreadData;
const driver = openPostgres(connection);
const held = followSuggestionIndexes(
  driver,
  createPostgresEvents(driver, types).feed,
  types,
  (error) => post({ error: error.message }),
  (state) => post({ state }),
);
const reader = heldReader(held);

port.on('message', async (message: ToThread) => {
  if ('stop' in message) {
    await held.stop();
    await driver.close();
    port.close();
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
