/**
 * The change feed's phase of the benchmark: how fast one reader reads every event of a load at
 * limit=1000, and how soon readers waiting with wait=30 are answered after a load commits (from
 * the event's commit time, on the same machine's clock, to the answer's arrival).
 */
import { IDENTITY } from './workload.ts';

const LIMIT = 1000;

interface FeedAnswer {
  readonly events: { readonly id: string; readonly time: string }[];
  readonly next: string;
}

async function feed(url: string, query: string, signal?: AbortSignal): Promise<FeedAnswer> {
  const response = await fetch(`${url}/v1/events?${query}`, {
    headers: IDENTITY,
    signal: signal ?? AbortSignal.timeout(60_000),
  });
  if (response.status !== 200)
    throw new Error(`GET /v1/events?${query} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as FeedAnswer;
}

/** The feed's last position now. */
export async function feedHead(url: string): Promise<string> {
  let after = '0';
  for (;;) {
    const answer = await feed(url, `after=${after}&limit=${LIMIT}`);
    if (answer.next === after) return after;
    after = answer.next;
  }
}

export interface ReadResult {
  readonly events: number;
  readonly seconds: number;
  readonly perSecond: number;
}

/**
 * Reads every event after `after` (from the start when absent) at limit=1000, as one client; with
 * `maxSeconds`, stops at the first answer after that many seconds (a new reader catching up).
 */
export async function readEvery(url: string, after?: string, maxSeconds = Infinity): Promise<ReadResult> {
  const started = performance.now();
  let events = 0;
  let position = after;
  while (performance.now() - started < maxSeconds * 1000) {
    const answer = await feed(url, `limit=${LIMIT}${position === undefined ? '' : `&after=${position}`}`);
    events += answer.events.length;
    if (answer.events.length === 0) break;
    position = answer.next;
  }
  const seconds = (performance.now() - started) / 1000;
  return { events, seconds, perSecond: events / seconds };
}

export interface WaitResult {
  /**
   * Milliseconds from each commit to a waiting reader's answer, one for each answer to a request sent
   * before the commit.
   */
  readonly latenciesMs: number[];
}

/**
 * `readers` clients following the feed from `after` with wait=30 while `work` runs (a load that
 * commits one or more times); each answer to a request sent before its first event was committed
 * gives one latency. A reader catches up at wait=0 before waiting again.
 */
export async function waitingReaders(
  url: string,
  readers: number,
  after: string,
  work: () => Promise<void>,
): Promise<WaitResult> {
  const latenciesMs: number[] = [];
  const stop = new AbortController();
  const follow = async () => {
    let position = after;
    while (!stop.signal.aborted) {
      const sent = Date.now();
      let answer: FeedAnswer;
      try {
        answer = await feed(url, `after=${position}&limit=${LIMIT}&wait=30`, stop.signal);
      } catch (error) {
        if (stop.signal.aborted) return;
        throw error;
      }
      const arrived = Date.now();
      const [first] = answer.events;
      if (first && Date.parse(first.time) >= sent) latenciesMs.push(arrived - Date.parse(first.time));
      position = answer.next;
      // Catch up with what committed meanwhile, so that the next request waits again.
      while (!stop.signal.aborted) {
        const more = await feed(url, `after=${position}&limit=${LIMIT}`);
        if (more.events.length === 0) break;
        position = more.next;
      }
    }
  };
  const following = Array.from({ length: readers }, follow);
  // Every reader's first request is on its way before the work starts.
  await new Promise((resolve) => setTimeout(resolve, 500));
  try {
    await work();
    // The last commit's answers.
    await new Promise((resolve) => setTimeout(resolve, 1500));
  } finally {
    stop.abort();
  }
  await Promise.all(following);
  return { latenciesMs };
}

export const percentile = (values: readonly number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
