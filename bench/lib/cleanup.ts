/**
 * What a benchmark run leaves behind (servers, schemas, files), undone at its end and on Ctrl-C.
 */
import { log } from './log.ts';
import { stopCommands } from './processes.ts';

/** Undone last first. */
export const cleanups: Array<() => Promise<unknown>> = [];
let cleaning: Promise<void> | undefined;

/** Stops every command still running, then undoes what the run did. */
export function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await stopCommands();
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error) => log(`clean-up: ${(error as Error).message}`));
  })();
  return cleaning;
}

/** The signal that stopped the run: what fails after it (a load killed on the way) is its doing, not news. */
let stoppedBy: NodeJS.Signals | undefined;

/** Stops the servers and cleans up on SIGINT or SIGTERM, exiting 130. */
export function cleanUpOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stoppedBy = signal;
      log(`\n${signal}: stopping the servers and cleaning up`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
}

/** The signal that stopped the run, if one did. */
export const stopSignal = () => stoppedBy;
