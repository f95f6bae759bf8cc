/**
 * The client: every operation of the service, typed from its OpenAPI document (schema.ts), sent
 * through openapi-fetch. Failures are thrown as LevApiError; GETs refused with 429 or 503 are
 * retried (retry.ts); the identity comes from an Auth (auth.ts).
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { Dispatcher } from 'undici';
import type { Auth } from './auth.ts';
import { LevApiError, errorOf } from './errors.ts';
import { type RetryOptions, withRetries } from './retry.ts';
import { type components, type operations, type paths, recordTypes } from './schema.ts';

type Schemas = components['schemas'];
type Query<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>;
/** An operation's query by its operationId, made from a record type's name (`search${Capitalize<T>}V1`). */
type QueryOf<O extends string> = O extends keyof operations ? Query<O> : never;
type AnswerOf<O extends string> = O extends keyof operations
  ? operations[O] extends { responses: { 200: { content: { 'application/json': infer A } } } }
    ? A
    : never
  : never;
type SchemaOf<S extends string> = S extends keyof Schemas ? Schemas[S] : never;

/** The record types the service serves, as its OpenAPI document lists them (schema.ts is generated from it). */
export type RecordType = (typeof recordTypes)[number];
export const RECORD_TYPES: readonly RecordType[] = recordTypes;

/**
 * The per-type types below are made from each type's name as the document names its schemas and
 * operations (`BirthV1`, `searchBirthV1`, `verifyBirth`, `suggestBirthV1`): a type the document
 * gains is typed here when schema.ts is generated again, with no edit to this file.
 */
type V1<T extends RecordType> = `${Capitalize<T>}V1`;

/** A record of each type as v1 gives it (fields the caller may not see are null). */
export type Records = { [T in RecordType]: SchemaOf<V1<T>> };
export type RecordOf<T extends RecordType> = Records[T];

type SearchParams = { [T in RecordType]: QueryOf<`search${V1<T>}`> };
export type SearchParamsOf<T extends RecordType> = SearchParams[T];

type VerificationParams = { [T in RecordType]: QueryOf<`verify${Capitalize<T>}`> };
export type VerificationParamsOf<T extends RecordType> = VerificationParams[T];

type SuggestionParams = { [T in RecordType]: QueryOf<`suggest${V1<T>}`> };
export type SuggestionParamsOf<T extends RecordType> = SuggestionParams[T];

type SuggestionAnswers = { [T in RecordType]: AnswerOf<`suggest${V1<T>}`> };
/** Close matches: `candidates` best first, each with its `score`, what each detail `matched`, and the `record`. */
export type SuggestionsOf<T extends RecordType> = SuggestionAnswers[T];
export type SuggestionOf<T extends RecordType> = SuggestionsOf<T>['candidates'][number];

/**
 * A record type the document lists without a schema or an operation named as above: none, or the next line
 * fails to compile, naming it.
 */
type Untyped = {
  [T in RecordType]:
    | NeverAs<RecordOf<T>, T>
    | NeverAs<SearchParamsOf<T>, T>
    | NeverAs<VerificationParamsOf<T>, T>
    | NeverAs<SuggestionParamsOf<T>, T>
    | NeverAs<SuggestionsOf<T>, T>;
}[RecordType];
type NeverAs<X, T> = [X] extends [never] ? T : never;
const everyTypeTyped: [Untyped] extends [never] ? true : `not typed from the document: ${Untyped}` = true;
void everyTypeTyped;

export type BirthV0 = Schemas['BirthV0'];
export type BirthV0SearchParams = Query<'searchBirthV0'>;
export type AuditReportParams = Query<'userActivity'>;
export type AuditReport = operations['userActivity']['responses'][200]['content']['application/json'];
export type AuditEntriesParams = Query<'auditEntries'>;
export type AuditEntry = Schemas['AuditEntry'];
export type RecordAccessesParams = Query<'recordAccesses'>;
export type AuditCheckpoint = Schemas['AuditCheckpoint'];
/**
 * A subscription to the change feed as the audit role sees it: its webhook (absent: the client reads the
 * feed), state, lag, failures and dead letters.
 */
export type SubscriptionState = Schemas['SubscriptionState'];
/**
 * What a credential offer is asked with: the format, and optionally the holder's wallet subject and a
 * transaction code.
 */
export type OfferRequest = operations['createOffer']['requestBody']['content']['application/json'];
/** A credential offer: its deep link, its transaction code when asked for, and when it expires. */
export type CredentialOffer = operations['createOffer']['responses'][201]['content']['application/json'];

export interface AuditEntries {
  /** Newest first. */
  readonly entries: AuditEntry[];
  /** More entries matched than `limit` (100 unless given): narrow the days or the filters, or ask for more. */
  readonly truncated: boolean;
}

/** A change-feed event: a CloudEvents 1.0 object; `id` is its position, to resume after. */
export type FeedEvent = Schemas['CloudEvent'];

export interface EventsOptions {
  /** Start after this position (an event's `id`, or one you kept); absent, at the oldest event kept. */
  readonly after?: string;
  /**
   * Instead of `after`: start at the first event at or after this ISO date or time (after a 410
   * CursorExpired, say).
   */
  readonly since?: string;
  /** Stops the iteration: it ends (without error) as soon as the signal aborts, a waiting request included. */
  readonly signal?: AbortSignal;
  /** Events a request (default 100, at most 1000). */
  readonly limit?: number;
  /** Seconds each request waits for an event when there is none (default 20, at most 30). */
  readonly wait?: number;
  /**
   * After a failed request (the network, a 5xx, 429): the first wait's ceiling, doubled each time (default
   * 500 ms), and the longest (default 30 s).
   */
  readonly backoff?: { readonly baseDelayMs?: number; readonly maxDelayMs?: number };
}

export interface SearchResults<R> {
  readonly records: R[];
  /** More records matched than the service returns (its MAX_RESULTS): narrow the search. */
  readonly truncated: boolean;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export interface LevClientOptions {
  /** Where the service is, e.g. `https://lev.example.gov.uk` (no trailing path). */
  readonly baseUrl: string;
  readonly auth?: Auth;
  /**
   * An undici dispatcher (an Agent with client certificates: `mutualTls`); requests then go through undici's
   * own fetch.
   */
  readonly dispatcher?: Dispatcher;
  readonly retry?: RetryOptions;
  /** Another fetch (for tests, or an app's own); not with `dispatcher`. */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Sent with every request (a User-Agent naming your service is kind). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface LevClient {
  /** The same client making its requests as another identity (the pages use each caseworker's own). */
  withAuth(auth: Auth): LevClient;
  /** One v1 record by its system number; LevApiError 404 when there is none. */
  lookup<T extends RecordType>(type: T, systemNumber: number | string, options?: CallOptions): Promise<RecordOf<T>>;
  /** v1 records by names and date, in ascending system number. */
  search<T extends RecordType>(
    type: T,
    params: SearchParamsOf<T>,
    options?: CallOptions,
  ): Promise<SearchResults<RecordOf<T>>>;
  /** Whether the details match exactly one current registration: true or false, and nothing of the record. */
  verify<T extends RecordType>(type: T, params: VerificationParamsOf<T>, options?: CallOptions): Promise<boolean>;
  /**
   * Close matches for details that may be slightly wrong (the `suggest` role with the dataset's): the
   * search's parameters and an optional `limit`; candidates best first, each saying how it matched.
   */
  suggest<T extends RecordType>(
    type: T,
    params: SuggestionParamsOf<T>,
    options?: CallOptions,
  ): Promise<SuggestionsOf<T>>;
  /** Accesses per user per day, from the audit trail (the `audit` role). */
  auditReport(params?: AuditReportParams, options?: CallOptions): Promise<AuditReport>;
  /** One user's accesses (`user` is the whole username), newest first: the report's drill-down (the `audit` role). */
  auditEntries(params: AuditEntriesParams, options?: CallOptions): Promise<AuditEntries>;
  /** Who saw a registration: the accesses that disclosed or decided on it, newest first (the `audit` role). */
  recordAccesses(
    type: RecordType,
    systemNumber: number | string,
    params?: RecordAccessesParams,
    options?: CallOptions,
  ): Promise<AuditEntries>;
  /** The audit trail's signed checkpoints, newest first, for a witness to keep (the `audit` role). */
  auditCheckpoints(params?: { limit?: number }, options?: CallOptions): Promise<AuditCheckpoint[]>;
  /**
   * Every subscription to the change feed, by client: where its events go, its state, lag, failures and dead
   * letters (the `audit` role).
   */
  subscriptions(options?: CallOptions): Promise<SubscriptionState[]>;
  /**
   * A digital certificate of the registration (the `credentials` role with the dataset's): the SD-JWT
   * VC, or with `format: 'qr'` the compact form a printed certificate's QR code holds, or with
   * `svg: true` as well, that QR code as SVG. `holderKey` binds the SD-JWT VC to the holder's key.
   */
  credential(
    type: RecordType,
    systemNumber: number | string,
    params?: { holderKey?: string; format?: 'sd-jwt' | 'qr'; svg?: boolean },
    options?: CallOptions,
  ): Promise<string>;
  /**
   * A credential offer of the registration for the holder's wallet (the `credentials` role with the
   * dataset's; docs/wallets.md): the deep link to show as a QR code or open, the transaction code
   * to send the holder separately when `txCode` asked for one, and when the offer expires.
   */
  createOffer(
    type: RecordType,
    systemNumber: number | string,
    body: OfferRequest,
    options?: CallOptions,
  ): Promise<CredentialOffer>;
  /** The v0 birth views of the existing service. */
  readonly v0: {
    lookup(type: 'birth', systemNumber: number | string, options?: CallOptions): Promise<BirthV0>;
    search(type: 'birth', params: BirthV0SearchParams, options?: CallOptions): Promise<SearchResults<BirthV0>>;
  };
  /**
   * The calling client's change feed, oldest first, for as long as it runs: follows each answer's
   * `next`, waits with `wait` when there is nothing new, and after a failure (the network, a 5xx or
   * 429) tries again with back-off. Ends when `signal` aborts; throws a LevApiError the caller must
   * act on (400, 401, 403, 410 CursorExpired: start again with `since`). Keep the last event's `id`
   * to resume with `after`.
   */
  events(options?: EventsOptions): AsyncIterable<FeedEvent>;
  /** The OpenAPI document the service serves. */
  openapi(options?: CallOptions): Promise<Record<string, unknown>>;
}

/** Failures worth trying again: no answer at all, the service unable to answer now, or the caller over its rate. */
const transient = (error: unknown) => !(error instanceof LevApiError) || error.status >= 500 || error.status === 429;

/** Waits `ms`, or less if `signal` aborts. */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => (clearTimeout(timer), signal?.removeEventListener('abort', done), resolve());
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

const TRUNCATED_HEADER = 'x-results-truncated';

/** A text answer read as the JSON error body it should be, or as it is. */
const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** How a request leaves: the given fetch, undici's with a dispatcher, or the platform's. */
function sender(options: LevClientOptions): (request: Request) => Promise<Response> {
  const { dispatcher, fetch: given } = options;
  if (dispatcher && given) throw new TypeError('createLevClient: give either dispatcher or fetch, not both');
  if (given) return given;
  if (!dispatcher) return (request) => fetch(request);
  return async (request) =>
    // undici's fetch takes its own Request class, not the platform's: pass the parts. Imported
    // here: a client given no dispatcher never loads undici.
    (await (
      await import('undici')
    ).fetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      signal: request.signal,
      dispatcher,
    })) as unknown as Response;
}

export function createLevClient(options: LevClientOptions): LevClient {
  const send = withRetries(sender(options), options.retry);
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: send,
    headers: { accept: 'application/json', ...options.headers },
  });
  const identity = (auth: Auth | undefined): Middleware => ({
    async onRequest({ request }) {
      await auth?.(request.headers);
      return request;
    },
  });

  const bind = (auth: Auth | undefined): LevClient => {
    const middleware = identity(auth);
    // openapi-fetch types each literal path; the paths here are made from the record type, so the
    // call is made untyped and its answer typed by the signatures above, which come from the same document.
    const get = async (
      path: string,
      params: { path?: Record<string, unknown>; query?: Record<string, unknown> },
      call: CallOptions = {},
    ) => {
      const { response, data, error } = await (
        api.GET as (p: string, init: object) => Promise<{ response: Response; data?: unknown; error?: unknown }>
      )(path, {
        params,
        signal: call.signal,
        middleware: [middleware],
      });
      if (!response.ok) throw errorOf(response, error);
      return { body: data, response };
    };
    const results = async <R>(path: string, query: object, call?: CallOptions): Promise<SearchResults<R>> => {
      const { body, response } = await get(path, { query: { ...query } }, call);
      return { records: body as R[], truncated: response.headers.get(TRUNCATED_HEADER) === 'true' };
    };
    const id = (systemNumber: number | string) => ({ id: String(systemNumber) });

    return {
      withAuth: (other) => bind(other),
      lookup: async <T extends RecordType>(type: T, systemNumber: number | string, call?: CallOptions) =>
        (await get(`/v1/registration/${type}/{id}`, { path: id(systemNumber) }, call)).body as RecordOf<T>,
      search: (type, params, call) => results(`/v1/registration/${type}`, params, call),
      verify: async (type, params, call) => {
        const { body } = await get(`/v1/verification/${type}`, { query: { ...params } }, call);
        return (body as { verified: boolean }).verified === true;
      },
      suggest: async <T extends RecordType>(type: T, params: SuggestionParamsOf<T>, call?: CallOptions) =>
        (await get(`/v1/suggestions/${type}`, { query: { ...params } }, call)).body as SuggestionsOf<T>,
      auditReport: async (params = {}, call) =>
        (await get('/api/v0/audit/user-activity', { query: { ...params } }, call)).body as AuditReport,
      auditEntries: async (params, call) => {
        const { records, truncated } = await results<AuditEntry>('/api/v0/audit/entries', params, call);
        return { entries: records, truncated };
      },
      recordAccesses: async (type, systemNumber, params = {}, call) => {
        const { body, response } = await get(
          '/api/v0/audit/records/{type}/{id}',
          { path: { type, id: String(systemNumber) }, query: { ...params } },
          call,
        );
        return { entries: body as AuditEntry[], truncated: response.headers.get(TRUNCATED_HEADER) === 'true' };
      },
      auditCheckpoints: async (params = {}, call) =>
        (await get('/api/v0/audit/checkpoints', { query: { ...params } }, call)).body as AuditCheckpoint[],
      subscriptions: async (call) => (await get('/api/v0/subscriptions', {}, call)).body as SubscriptionState[],
      credential: async (type, systemNumber, { svg = false, ...query } = {}, call = {}) => {
        const { response, data, error } = await (
          api.GET as (p: string, init: object) => Promise<{ response: Response; data?: unknown; error?: unknown }>
        )('/v1/credentials/{type}/{id}', {
          params: { path: { type, id: String(systemNumber) }, query },
          headers: { accept: svg ? 'image/svg+xml' : 'application/dc+sd-jwt, application/json' },
          parseAs: 'text',
          signal: call.signal,
          middleware: [middleware],
        });
        if (!response.ok) throw errorOf(response, typeof error === 'string' ? safeJson(error) : error);
        return data as string;
      },
      createOffer: async (type, systemNumber, body, call = {}) => {
        // Not retried: each call makes an offer.
        const { response, data, error } = await (
          api.POST as (p: string, init: object) => Promise<{ response: Response; data?: unknown; error?: unknown }>
        )('/v1/credentials/{type}/{id}/offer', {
          params: { path: { type, id: String(systemNumber) } },
          body,
          signal: call.signal,
          middleware: [middleware],
        });
        if (!response.ok) throw errorOf(response, error);
        return data as CredentialOffer;
      },
      v0: {
        lookup: async (type, systemNumber, call) =>
          (await get(`/api/v0/events/${type}/{systemNumber}`, { path: { systemNumber: String(systemNumber) } }, call))
            .body as BirthV0,
        search: (type, params, call) => results(`/api/v0/events/${type}`, params, call),
      },
      openapi: async (call) => (await get('/openapi.json', {}, call)).body as Record<string, unknown>,
      events: (eventsOptions = {}) => follow(eventsOptions),
    };

    async function* follow({
      after,
      since,
      signal,
      limit,
      wait = 20,
      backoff = {},
    }: EventsOptions): AsyncGenerator<FeedEvent> {
      const { baseDelayMs = 500, maxDelayMs = 30_000 } = backoff;
      let position = after;
      let failures = 0;
      while (!signal?.aborted) {
        let page: { events: FeedEvent[]; next: string };
        try {
          const query = {
            ...(position !== undefined ? { after: position } : since !== undefined ? { since } : {}),
            ...(limit ? { limit } : {}),
            wait,
          };
          page = (await get('/v1/events', { query }, { signal })).body as { events: FeedEvent[]; next: string };
        } catch (error) {
          if (signal?.aborted) return;
          if (!transient(error)) throw error;
          failures++;
          await pause(Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (failures - 1)), signal);
          continue;
        }
        failures = 0;
        for (const event of page.events) {
          if (signal?.aborted) return;
          yield event;
        }
        position = page.next;
      }
    }
  };
  return bind(options.auth);
}

export { LevApiError };
