/**
 * Drives a server with autocannon, in one of two modes:
 *
 * - `max`, closed loop: `connections` connections, each sending its next
 *   request as soon as the previous answer arrives, for `duration` seconds.
 * - `rate`, a fixed offered rate: autocannon's `overallRate`, spread over
 *   the same number of connections. autocannon paces each connection by a
 *   quota per one-second window, and all the windows of one instance start
 *   together, so one instance would send the whole second's requests in a
 *   burst at the start of each second. Each connection is therefore its own
 *   instance (rate / connections requests a second), and the instances start
 *   evenly spread over the first second, so their windows are staggered.
 *
 * Latencies are taken from the responses themselves (autocannon's `response`
 * event, in fractional milliseconds), not from autocannon's histogram: that
 * one keeps whole milliseconds and, in rate mode, adds synthetic samples.
 * They count from the moment every connection is set up: autocannon builds
 * each connection's requests synchronously while it starts them (20 lists of
 * 2,000 take a few hundred milliseconds), and the first requests, sent
 * meanwhile, wait for that in the load generator, not in the server.
 */
import autocannon, { type Request } from 'autocannon';

export interface DriveSettings {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  readonly url: string;
  readonly duration: number;
  readonly connections: number;
  /** Seconds before a request counts as timed out. */
  readonly timeout: number;
}

export type Mode = { readonly kind: 'max' } | { readonly kind: 'rate'; readonly rate: number };

export interface DriveResult {
  /** Seconds of load (each instance's own duration). */
  readonly seconds: number;
  /** Every response, including those to requests sent after `seconds` while autocannon stopped. */
  readonly responses: number;
  /** Responses per second: those to the requests sent within each instance's `seconds`, over `seconds`. */
  readonly rps: number;
  /** Requests autocannon counted as sent. */
  readonly sent: number;
  /** Socket errors and timeouts (timeouts included). */
  readonly errors: number;
  readonly timeouts: number;
  /** Responses by status code. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Latency percentiles, in milliseconds, of the requests sent once every connection was set up. */
  readonly latencyMs: {
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly p99_9: number;
    readonly max: number;
    readonly mean: number;
  };
}

/** Most latencies kept per phase; beyond this the percentiles are of the first ones. */
const MAX_SAMPLES = 5_000_000;

class Recorder {
  private readonly latencies = new Float64Array(MAX_SAMPLES);
  private kept = 0;
  responses = 0;
  /** Responses to requests sent within their instance's duration. */
  inTime = 0;
  readonly statuses: Record<string, number> = {};
  /** When the last connection was set up (performance.now()); latencies count from then. */
  measuringFrom = Infinity;

  record(status: number, ms: number, sentAt: number, inTime: boolean) {
    this.responses++;
    if (inTime) this.inTime++;
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (sentAt >= this.measuringFrom && this.kept < MAX_SAMPLES) this.latencies[this.kept++] = ms;
  }

  percentiles(): DriveResult['latencyMs'] {
    const sorted = this.latencies.subarray(0, this.kept).sort();
    const at = (p: number) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] : NaN;
    let sum = 0;
    for (const value of sorted) sum += value;
    return {
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      p99_9: at(0.999),
      max: at(1),
      mean: sorted.length ? sum / sorted.length : NaN,
    };
  }
}

interface Running {
  /** Resolves once the instance's connections are set up and its duration starts. */
  readonly started: Promise<number>;
  readonly done: Promise<autocannon.Result>;
}

/** One autocannon instance; each of its connections takes the next list of `lists`. */
function instance(
  options: autocannon.Options,
  lists: readonly Request[][],
  first: number,
  recorder: Recorder,
): Running {
  let next = first;
  // The duration runs from the 'start' event. autocannon stops at its first per-second tick after it,
  // so requests are sent for up to a second longer (in rate mode, a whole extra quota): only those
  // sent within the duration count for rps.
  let end = Infinity;
  let markStarted: (at: number) => void;
  const started = new Promise<number>((resolve) => (markStarted = resolve));
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    const running = autocannon(
      {
        ...options,
        // A placeholder: setupClient gives every connection its own list before it sends anything.
        requests: [{ method: 'GET', path: '/' }],
        setupClient: (client) => client.setRequests(lists[next++ % lists.length]),
        pipelining: 1,
      },
      (error, result) => {
        markStarted(performance.now()); // In case it failed before it started.
        if (error) reject(error);
        else resolve(result);
      },
    );
    running.on('start', () => {
      const at = performance.now();
      end = at + Number(options.duration) * 1000;
      markStarted(at);
    });
    running.on('response', (_client, status, _bytes, ms) => {
      const sentAt = performance.now() - ms;
      recorder.record(status, ms, sentAt, sentAt < end);
    });
  });
  return { started, done };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function drive(settings: DriveSettings, lists: readonly Request[][], mode: Mode): Promise<DriveResult> {
  const recorder = new Recorder();
  const common = { url: settings.url, duration: settings.duration, timeout: settings.timeout };
  let results: autocannon.Result[];
  if (mode.kind === 'max') {
    const running = instance({ ...common, connections: settings.connections }, lists, 0, recorder);
    recorder.measuringFrom = await running.started;
    results = [await running.done];
  } else {
    const connections = Math.max(1, Math.min(settings.connections, mode.rate));
    const running: Running[] = [];
    for (let c = 0; c < connections; c++) {
      if (c > 0) await sleep(1000 / connections);
      // Spread the rate over the connections: they differ by one request a second at most.
      const rate = Math.floor(mode.rate / connections) + (c < mode.rate % connections ? 1 : 0);
      running.push(instance({ ...common, connections: 1, overallRate: rate }, lists, c, recorder));
    }
    recorder.measuringFrom = Math.max(...(await Promise.all(running.map((r) => r.started))));
    results = await Promise.all(running.map((r) => r.done));
  }
  const sum = (pick: (r: autocannon.Result) => number) => results.reduce((total, r) => total + (pick(r) || 0), 0);
  // Each instance ran for `duration` seconds (staggered instances overlap, each adding its own rate).
  return {
    seconds: settings.duration,
    responses: recorder.responses,
    rps: recorder.inTime / settings.duration,
    sent: sum((r) => r.requests.sent),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statuses: recorder.statuses,
    latencyMs: recorder.percentiles(),
  };
}
