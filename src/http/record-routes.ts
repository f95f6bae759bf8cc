/**
 * The lookup and search routes of every view, derived from its description.
 */
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import type { RenderCache } from '../render/cache.ts';
import type { CompiledView } from '../render/view.ts';
import type { RecordReader } from '../model/store.ts';
import { refsOf } from './plugins/audit.ts';
import { readOptionsOf } from './feed-position.ts';
import { idParameters, searchParameters, searchQueryRule } from './parameters.ts';
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

/** The search's description in the OpenAPI document: what it matches, and v0's forenames rule. */
function searchDescription(view: CompiledView, rule: Record<string, unknown> | undefined): string {
  const parts = view.query.forenameParts ?? [];
  return (
    `${view.record.search.description} Results are in ascending system-number order, at most MAX_RESULTS of them; when more matched, the ${TRUNCATED_HEADER} header is true.` +
    (rule
      ? ` Give the forenames whole, as '${view.query.forenames}', or word by word, as '${parts[0]}' (not empty) and optionally ${parts
          .slice(1)
          .map((p) => `'${p}'`)
          .join(', ')}, ` +
        `with a letter or digit among the words; never both ways. A search that gives neither or both is refused (400). ` +
        'No parameter of OpenAPI 3.1 can require one of two others, so this rule is also given as a JSON Schema of the whole query, in x-querystring-schema.'
      : '')
  );
}

export async function recordRoutes(app: FastifyInstance, { views, store, maxResults, rendered }: RecordRoutesOptions) {
  for (const view of views) {
    const dataset = view.record.name;
    const tags = [dataset, view.version];
    const title = view.record.title.toLowerCase();
    const record = { $ref: schemaRef(view.schemaName) };
    const rule = searchQueryRule(view);

    app.get<{ Params: Record<string, string> }>(
      `${view.path}/:${view.idParam}`,
      {
        schema: {
          tags,
          operationId: `read${view.schemaName}`,
          summary: `Look up one ${title} by its system number`,
          params: idParameters(view),
          response: {
            200: answer('The record', record),
            ...RECORD_ERRORS,
            404: errorResponse('No record has that system number'),
          },
        },
        ...documentationOnly,
        config: { dataset, operation: 'lookup', feedPosition: true } satisfies RecordRouteConfig,
      },
      async (request, reply) => {
        const id = canonicalSystemNumber(request.params[view.idParam]);
        const options = readOptionsOf(request);
        const stored = await inSpan('store.lookup', { 'lev.record.type': dataset }, async (span) => {
          const found = await storeUnavailable(() => store.lookupJson(dataset, id, options));
          span.setAttribute('lev.result.count', found === undefined ? 0 : 1);
          return found;
        });
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
          description: searchDescription(view, rule),
          ...(rule ? { 'x-querystring-schema': rule } : {}),
          querystring: searchParameters(view),
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
        config: { dataset, operation: 'search', feedPosition: true } satisfies RecordRouteConfig,
      },
      async (request, reply) => {
        const key = searchKeyOf(view, request.query);
        const options = readOptionsOf(request);
        const result = await inSpan('store.search', { 'lev.record.type': dataset }, async (span) => {
          const found = await storeUnavailable(() => store.searchJson(dataset, key, maxResults, options));
          span.setAttribute('lev.result.count', found.ids.length);
          return found;
        });
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
