/**
 * The lookup and search routes of every view, derived from its description.
 */
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import type { RenderCache } from '../render/cache.ts';
import type { CompiledView } from '../render/view.ts';
import type { RecordReader } from '../model/store.ts';
import { refsOf } from './plugins/audit.ts';
import { feedPositionHeaders, readOptionsOf } from './feed-position.ts';
import { idParameters, searchParameters } from './parameters.ts';
import { type RecordRouteConfig, TRUNCATED_HEADER, audienceOf, storeUnavailable } from './route-config.ts';
import { RECORD_ERRORS, answer, documentationOnly, errorResponse } from './documentation.ts';
import { schemaRef } from '../render/view.ts';
import { searchKeyOf } from './search-key.ts';
import { inSpan } from '../tracing/spans.ts';
import { canonicalSystemNumber } from '../records/system-number.ts';

interface RecordRoutesOptions {
  readonly views: readonly CompiledView[];
  readonly store: RecordReader;
  readonly maxResults: number;
  /** Renders records, reusing earlier renderings of the same stored text. */
  readonly rendered: RenderCache;
}

type Query = Record<string, string | undefined>;

/** The search's description in the OpenAPI document (openapi.ts adds its query's rules). */
const searchDescription = (view: CompiledView): string =>
  `${view.record.search.description} Results are in ascending system-number order, at most MAX_RESULTS of ` +
  `them; when more matched, the ${TRUNCATED_HEADER} header is true.`;

export async function recordRoutes(app: FastifyInstance, { views, store, maxResults, rendered }: RecordRoutesOptions) {
  for (const view of views) {
    const dataset = view.record.name;
    const tags = [dataset, view.version];
    const title = view.record.title.toLowerCase();
    const record = { $ref: schemaRef(view.schemaName) };

    app.get<{ Params: Record<string, string> }>(
      `${view.path}/:${view.idParam}`,
      {
        schema: {
          tags,
          operationId: `read${view.schemaName}`,
          summary: `Look up one ${title} by its system number`,
          params: idParameters(view),
          headers: feedPositionHeaders,
          response: {
            200: answer('The record', record),
            ...RECORD_ERRORS,
            404: errorResponse('No record has that system number'),
          },
        },
        ...documentationOnly,
        config: { dataset, operation: 'lookup' } satisfies RecordRouteConfig,
      },
      async (request, reply) => {
        const id = canonicalSystemNumber(request.params[view.idParam]);
        const options = readOptionsOf(request);
        const stored = await inSpan(
          'store.lookup',
          { 'lev.record.type': dataset },
          () => storeUnavailable(() => store.lookupJson(dataset, id, options)),
          (found) => ({ 'lev.result.count': found === undefined ? 0 : 1 }),
        );
        if (stored === undefined) throw notFound();
        const json = await request.renderWhileAudited(refsOf(dataset, [Number(id)]), () =>
          rendered.json(view, audienceOf(request), stored),
        );
        // Already JSON: sent as it is, not serialised again.
        return reply.type('application/json').send(json);
      },
    );

    app.get<{ Querystring: Query }>(
      view.path,
      {
        schema: {
          tags,
          operationId: `search${view.schemaName}`,
          summary: `Search ${title}s`,
          description: searchDescription(view),
          querystring: searchParameters(view),
          headers: feedPositionHeaders,
          response: {
            200: answer('The matching records (an empty array when none match)', {
              headers: {
                [TRUNCATED_HEADER]: {
                  description: 'Present and true when more records matched than were returned',
                  type: 'string',
                  enum: ['true'],
                },
              },
              type: 'array',
              items: record,
            }),
            ...RECORD_ERRORS,
          },
        },
        ...documentationOnly,
        config: { dataset, operation: 'search' } satisfies RecordRouteConfig,
      },
      async (request, reply) => {
        const key = searchKeyOf(view, request.query);
        const options = readOptionsOf(request);
        const result = await inSpan(
          'store.search',
          { 'lev.record.type': dataset },
          () => storeUnavailable(() => store.searchJson(dataset, key, maxResults, options)),
          (found) => ({ 'lev.result.count': found.ids.length }),
        );
        if (result.truncated) reply.header(TRUNCATED_HEADER, 'true');
        const audience = audienceOf(request);
        const records = await request.renderWhileAudited(refsOf(dataset, result.ids), () =>
          result.records.map((stored) => rendered.json(view, audience, stored)),
        );
        return reply.type('application/json').send(`[${records.join(',')}]`);
      },
    );
  }
}
