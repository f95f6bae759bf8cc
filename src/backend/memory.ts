/**
 * The embedded backend: records and the audit trail in the process's memory
 * (the trail also in a file when AUDIT_FILE is set). Light enough for a
 * client team's CI container: nothing but the records, their search keys and
 * the latest audit entries.
 */
import type { AuditCheckpointConfig, EmbeddedAuditConfig } from '../config/audit.ts';
import { defaultHeadPath } from '../audit/file/head-file.ts';
import { checkpointSigner, newSigningKey, scheduleCheckpoints } from '../audit/checkpoint.ts';
import { type MemoryTrail, openMemoryTrail } from '../audit/memory-trail.ts';
import type { RecordDescription } from '../records/define.ts';
import { createMemoryCredentialStatuses } from '../store/memory-credentials.ts';
import { createMemoryWalletStore } from '../store/memory-wallet.ts';
import { createMemoryRecords } from '../store/memory-records.ts';
import { REVOKING_REASONS } from '../model/credentials.ts';
import { createMemoryWebhooks } from '../store/memory-webhooks.ts';
import type { Backend } from '../model/store.ts';
import type { CloseMatcher } from '../match/suggest.ts';
import { type SuggestionThreads, startSuggestionThreads, threadFirst } from '../store/suggestion-thread.ts';

export interface MemoryBackend extends Backend {
  readonly kind: 'memory';
  readonly trail: MemoryTrail;
  /** The threads each holding a copy of the close-match index, when opened with them. */
  readonly suggestionIndexes?: SuggestionThreads;
  /** Close matches found on those threads, or on the event loop while they cannot. */
  readonly closeMatches?: CloseMatcher;
}

export async function openMemoryBackend(
  descriptions: readonly RecordDescription[],
  audit: EmbeddedAuditConfig,
  checkpoints: AuditCheckpointConfig = { intervalMs: 60_000 },
  /**
   * How many threads of their own close matches are found on (suggestion-thread.ts), each fed a
   * copy of the index, started at the first close match: what a served process does, for the
   * second core (SUGGEST_THREADS); tests leave them off (0), for the thread's start.
   */
  { suggestionThreads = 0 }: { readonly suggestionThreads?: number } = {},
): Promise<MemoryBackend> {
  const { reader, writer, events, searchKeys } = createMemoryRecords(descriptions);
  const thread = suggestionThreads
    ? startSuggestionThreads(
        descriptions.map((d) => d.name),
        { fed: searchKeys },
        (error) =>
          // The message only: the index holds names, and an error never quotes them.
          console.error(
            `the close-match thread failed (${error.message}); it is started again, close matches are found on ` +
              `the event loop meanwhile`,
          ),
        { whenAsked: true, threads: suggestionThreads },
      )
    : undefined;
  const credentials = createMemoryCredentialStatuses();
  const revoking = new Set<string>(REVOKING_REASONS);
  events.onAppend((type, changes) =>
    credentials.revoke(
      type,
      changes.filter((change) => change.reason && revoking.has(change.reason)).map((change) => change.id),
    ),
  );
  // The head beside the trail, so that a trail cut short is told at start and by verify.
  const trail = await openMemoryTrail({
    ...audit,
    file: audit.file && { ...audit.file, headPath: defaultHeadPath(audit.file.path) },
  });
  // The mock makes its own key at start unless one is configured.
  const signer = checkpointSigner(checkpoints.signingKey ?? newSigningKey());
  const schedule = scheduleCheckpoints(async () => trail.checkpoint(signer), checkpoints.intervalMs);
  return {
    kind: 'memory',
    records: reader,
    ...(thread ? { suggestionIndexes: thread, closeMatches: threadFirst(thread, reader) } : {}),
    writer,
    audit: trail,
    report: trail,
    events: events.feed,
    subscriptions: events.subscriptions,
    credentials,
    wallet: createMemoryWalletStore(),
    webhooks: createMemoryWebhooks({
      head: async () => (await events.feed.bounds(new Date(0))).head,
      subscription: (client) => events.subscriptions.get(client),
      firstAfter: async (position, types) => (await events.feed.read(position, types, 1)).events[0],
    }),
    trail,
    warnings: () =>
      trail.tornTailSetAside
        ? [
            {
              // The file's name only: the line holds who asked for what.
              details: { setAside: trail.tornTailSetAside },
              message:
                'audit file: its last line was torn (a write a crash cut short, so never acknowledged); it was ' +
                'set aside for investigation and the chain continues from the last whole entry',
            },
          ]
        : [],
    async close() {
      await Promise.all([schedule.stop(), thread?.stop()]);
      await trail.close();
    },
  };
}
