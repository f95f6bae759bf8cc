/**
 * The lookup and search routes of every view, derived from its description.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditEntry, AuditOperation, AuditTrail, RecordRef } from '../types/audit.ts';
import { normaliseName } from '../records/normalise.ts';
import type { SearchKey } from '../types/records.ts';
import type { RenderCache } from '../render/cache.ts';
import type { CompiledView } from '../render/view.ts';
import type { RecordReader } from '../types/store.ts';
import { badRequest, notFound, serviceUnavailable, unavailableUnless } from '../errors.ts';
import { FULL_DETAILS_ROLE, type Identity } from '../types/identity.ts';
import { readOptionsOf } from './feed-position.ts';
import { idParameters, searchParameters } from './parameters.ts';
import { inSpan, inSpanSync } from '../tracing/spans.ts';

export type Operation = AuditOperation;

/** What a record route tells the hooks around it (identity, metrics, audit). */
export interface RecordRouteConfig {
  readonly dataset: string;
  readonly operation: Operation;
}

export const TRUNCATED_HEADER = 'x-results-truncated';

declare module 'fastify' {
  interface FastifyRequest {
    identity?: Identity;
    /** Ends the request's place among the accesses the audit trail expects an entry from (`AuditTrail.expect`). */
    auditExpected?: () => void;
  }
  interface FastifyContextConfig extends Partial<RecordRouteConfig> {
    /** The route needs a caller identity even though it serves no dataset. */
    requiresIdentity?: boolean;
    /** The route's Cache-Control, where its answer may be kept (every other answer is no-store). */
    cacheControl?: string;
  }
}

interface RecordRoutesOptions {
  readonly views: readonly CompiledView[];
  readonly store: RecordReader;
  readonly audit: AuditTrail;
  readonly maxResults: number;
  /** Renders records, reusing earlier renderings of the same stored text. */
  readonly rendered: RenderCache;
}

type Query = Record<string, string | undefined>;

export const audienceOf = (request: FastifyRequest) => ({
  fullDetails: request.identity?.roles.includes(FULL_DETAILS_ROLE) ?? false,
});

/** A failing store means the service cannot answer now; the caller may retry. */
export const fromStore = unavailableUnless('The record store is unavailable; try again shortly');

/** The forenames searched for: the `forenames` parameter or, in v0, its words given one by one. */
function forenamesOf(view: CompiledView, query: Query): string {
  const { forenames, forenameParts } = view.query;
  const given = query[forenames];
  if (!forenameParts) return given ?? '';
  const [first] = forenameParts;
  const alternative = `'${forenames}' or '${first}' (with optional ${forenameParts.slice(1).map((p) => `'${p}'`).join(', ')})`;
  const partsGiven = forenameParts.some((part) => query[part] !== undefined);
  if (given !== undefined && partsGiven) throw badRequest(`Give either ${alternative}, not both`);
  if (given !== undefined) return given;
  if (!query[first]) throw badRequest(`Missing query parameter: give ${alternative}`);
  return forenameParts
    .map((part) => query[part])
    .filter(Boolean)
    .join(' ');
}

/** The registrations of one type named by their ids, as an audit entry names what an access disclosed. */
export const refsOf = (type: string, ids: readonly number[]): RecordRef[] => ids.map((id) => ({ type, id }));

/**
 * Records the access, naming the registrations it disclosed or decided on (`records`: none is
 * still a list, written as one, so that finding nothing costs the trail what finding one does;
 * undefined for an access that discloses no registration); data is sent only once its entry is
 * committed. `details` names a change-feed answer's events and fields.
 */
export async function audited(
  audit: AuditTrail,
  request: FastifyRequest,
  results: number,
  records: readonly RecordRef[] | undefined,
  { dataset, operation } = request.routeOptions.config as RecordRouteConfig,
  details: Pick<AuditEntry, 'events' | 'fields'> = {},
) {
  const identity = request.identity as Identity;
  const mark = request.url.indexOf('?');
  const [path, query] = mark < 0 ? [request.url, ''] : [request.url.slice(0, mark), request.url.slice(mark + 1)];
  try {
    await inSpan('audit.record', { 'lev.record.type': dataset, 'lev.result.count': results }, async () => {
      const recorded = audit.record({
        username: identity.username,
        client: identity.client,
        groups: identity.groups,
        dataset,
        operation,
        path,
        query,
        results,
        requestId: request.id,
        ...(records ? { records } : {}),
        ...details,
      });
      // Queued: the group it joins need not wait for it any more.
      request.auditExpected?.();
      await recorded;
    });
  } catch (error) {
    throw Object.assign(serviceUnavailable('The access could not be recorded in the audit trail, so no data was sent; try again shortly'), {
      cause: error,
    });
  }
}

/**
 * Records the access, then renders while its entry is being committed: rendering waits for the
 * event loop's next turn, by which time the audit trail has sent this turn's entries off (it too
 * starts from setImmediate), so the two overlap instead of adding up. Data is still sent only once
 * the entry is committed; a rendering that fails fails the request as before, its access recorded.
 */
export async function renderWhileAudited<T>(audit: AuditTrail, request: FastifyRequest, records: readonly RecordRef[], render: () => T): Promise<T> {
  const committed = audited(audit, request, records.length, records);
  // Awaited below; until then its failure must not count as unhandled.
  committed.catch(() => {});
  await nextTurn();
  const rendered = inSpanSync('render', { 'lev.record.count': records.length }, render);
  await committed;
  return rendered;
}

/** The search key a search's parameters give, its names normalised; a 400 naming a name with nothing to search by. */
export function searchKeyOf(view: CompiledView, query: Query): SearchKey {
  // v0 forenames may come word by word; the message then names the parameter the caller gave.
  const { forenames, forenameParts } = view.query;
  const names = { surname: view.query.surname, forenames: forenameParts && query[forenames] === undefined ? forenameParts[0] : forenames };
  const key = {
    date: query[view.query.date] as string,
    surname: normaliseName(query[names.surname] as string),
    forenames: normaliseName(forenamesOf(view, query)),
  };
  for (const part of ['surname', 'forenames'] as const) {
    if (!key[part]) throw badRequest(`Invalid query parameter '${names[part]}': it must contain at least one letter or digit`);
  }
  return key;
}

export async function recordRoutes(app: FastifyInstance, { views, store, audit, maxResults, rendered }: RecordRoutesOptions) {
  for (const view of views) {
    const dataset = view.record.name;
    const tags = [dataset, view.version];

    app.get<{ Params: Record<string, string> }>(
      `${view.path}/:${view.idParam}`,
      {
        schema: { params: idParameters(view), tags },
        config: { dataset, operation: 'lookup' } satisfies RecordRouteConfig,
      },
      async (request, reply) => {
        const id = request.params[view.idParam].replace(/^0+(?=\d)/, '');
        const options = readOptionsOf(request);
        const stored = await inSpan('store.lookup', { 'lev.record.type': dataset }, async (span) => {
          const found = await fromStore(() => store.lookupJson(dataset, id, options));
          span.setAttribute('lev.result.count', found === undefined ? 0 : 1);
          return found;
        });
        if (stored === undefined) throw notFound();
        const json = await renderWhileAudited(audit, request, refsOf(dataset, [Number(id)]), () => rendered.json(view, audienceOf(request), stored));
        // Already JSON: sent as it is, not serialised again.
        return reply.type('application/json').send(json);
      },
    );

    app.get<{ Querystring: Query }>(
      view.path,
      {
        schema: { querystring: searchParameters(view), tags },
        config: { dataset, operation: 'search' } satisfies RecordRouteConfig,
      },
      async (request, reply) => {
        const key = searchKeyOf(view, request.query);
        const options = readOptionsOf(request);
        const result = await inSpan('store.search', { 'lev.record.type': dataset }, async (span) => {
          const found = await fromStore(() => store.searchJson(dataset, key, maxResults, options));
          span.setAttribute('lev.result.count', found.ids.length);
          return found;
        });
        if (result.truncated) reply.header(TRUNCATED_HEADER, 'true');
        const audience = audienceOf(request);
        const records = await renderWhileAudited(audit, request, refsOf(dataset, result.ids), () =>
          result.records.map((stored) => rendered.json(view, audience, stored)),
        );
        return reply.type('application/json').send(`[${records.join(',')}]`);
      },
    );
  }
}
