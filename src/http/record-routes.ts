/**
 * The lookup and search routes of every view, derived from its description.
 */
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import type { RenderCache } from '../render/cache.ts';
import type { CompiledView } from '../render/view.ts';
import type { RecordReader } from '../types/store.ts';
import { refsOf } from './plugins/audit.ts';
import { readOptionsOf } from './feed-position.ts';
import { idParameters, searchParameters } from './parameters.ts';
import { type RecordRouteConfig, TRUNCATED_HEADER, audienceOf, fromStore } from './route-config.ts';
import { searchKeyOf } from './search-key.ts';
import { inSpan } from '../tracing/spans.ts';

interface RecordRoutesOptions {
  readonly views: readonly CompiledView[];
  readonly store: RecordReader;
  readonly maxResults: number;
  /** Renders records, reusing earlier renderings of the same stored text. */
  readonly rendered: RenderCache;
}

type Query = Record<string, string | undefined>;

export async function recordRoutes(app: FastifyInstance, { views, store, maxResults, rendered }: RecordRoutesOptions) {
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
        const json = await request.renderWhileAudited(refsOf(dataset, [Number(id)]), () => rendered.json(view, audienceOf(request), stored));
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
        const records = await request.renderWhileAudited(refsOf(dataset, result.ids), () =>
          result.records.map((stored) => rendered.json(view, audience, stored)),
        );
        return reply.type('application/json').send(`[${records.join(',')}]`);
      },
    );
  }
}
