/**
 * GET /v1/suggestions/{type}: close matches for caseworkers, who look at what they get. The same
 * parameters as the type's v1 search (and the same required ones), plus `limit`; the answer lists
 * candidates by probability, each with what every detail matched and the evidence it added
 * (src/match/), and the record rendered as
 * a lookup renders it for this caller. Candidates come from the store's close-match key index, never
 * from reading a type's records; those under the floor (SUGGEST_MIN_PROBABILITY) are never returned.
 */
import type { FastifyInstance } from 'fastify';
import { type Matched, type Weights, namedExactly } from '../match/score.ts';
import { type CloseMatcher, closeMatches } from '../match/suggest.ts';
import { MATCH_KINDS } from '../match/vocabulary.ts';
import { readPath } from '../records/define.ts';
import type { RenderCache } from '../render/cache.ts';
import type { CompiledView } from '../render/view.ts';
import type { RecordReader } from '../model/store.ts';
import { EXPECTED, searchParameters } from './parameters.ts';
import { type RecordRouteConfig, audienceOf, storeUnavailable } from './route-config.ts';
import { refsOf } from './plugins/audit.ts';
import { searchKeyOf } from './search-key.ts';
import { FOUND_PROBABILITY } from './enumeration-watch.ts';
import type { FalseShareMonitor } from './false-share-monitor.ts';
import type { Identity } from '../model/identity.ts';
import { RECORD_ERRORS, answer, documentationOnly, errorResponse } from './documentation.ts';
import { SUGGEST_ROLE } from '../auth/identify.ts';
import { schemaRef } from '../render/view.ts';

export const suggestionPath = (type: string) => `/v1/suggestions/${type}`;

const DEFAULT_SUGGESTIONS = 5;
const MAX_SUGGESTIONS = 10;

/** The search's parameters and `limit`, from the same builders: the same checks and messages. */
function suggestionParameters(view: CompiledView) {
  const search = searchParameters(view);
  return {
    ...search,
    properties: {
      ...search.properties,
      limit: {
        type: 'string',
        pattern: '^(10|[1-9])$',
        description: `The most candidates to return, 1 to ${MAX_SUGGESTIONS}; ${DEFAULT_SUGGESTIONS} when not given`,
        [EXPECTED]: `a whole number from 1 to ${MAX_SUGGESTIONS}`,
        examples: ['5'],
      },
    },
  };
}

/** What each parameter matched, by the parameter's name. */
const matchedSchema = (view: CompiledView) => ({
  type: 'object',
  description: 'For each detail given, how the record matched it (docs/search.md)',
  required: [view.query.surname, view.query.forenames, view.query.date],
  additionalProperties: false,
  properties: Object.fromEntries(
    [view.query.surname, view.query.forenames, view.query.date].map((name) => [
      name,
      { type: 'string', enum: [...MATCH_KINDS] },
    ]),
  ),
});

/** The evidence each detail added, by the parameter's name. */
const weightsSchema = (view: CompiledView) => ({
  type: 'object',
  description:
    'For each detail given, the evidence its match added, in bits (log2 of m/u, docs/search.md): positive ' +
    'for the registration, negative against',
  required: [view.query.surname, view.query.forenames, view.query.date],
  additionalProperties: false,
  properties: Object.fromEntries(
    [view.query.surname, view.query.forenames, view.query.date].map((name) => [name, { type: 'number' }]),
  ),
});

const suggestionResponse = (view: CompiledView, recordRef: string) => ({
  type: 'object',
  required: ['candidates', 'truncated'],
  additionalProperties: false,
  properties: {
    candidates: {
      type: 'array',
      maxItems: MAX_SUGGESTIONS,
      description: 'The close matches, best first (by score, then system number); empty when none reaches the floor',
      items: {
        type: 'object',
        required: ['score', 'matched', 'weights', 'record'],
        additionalProperties: false,
        properties: {
          score: {
            type: 'number',
            minimum: 0,
            maximum: 1,
            description:
              'The probability that the record is the registration sought, 0 to 1 (three decimal places, ' +
              'calibrated: docs/search.md); the same query always gives the same score',
          },
          matched: matchedSchema(view),
          weights: weightsSchema(view),
          record: { $ref: recordRef },
        },
      },
    },
    truncated: {
      type: 'boolean',
      description:
        'More close matches reached the floor than were returned, or a blocking pass found more records ' +
        'than its cap (docs/search.md): a fuller query narrows them',
    },
  },
});

/** What the OpenAPI document says a type's close matches are. */
function suggestionDescription(view: CompiledView): string {
  const record = view.record;
  const title = record.title.toLowerCase();
  return (
    `Finds the ${title}s that match the details closely, when they may be slightly wrong: a nickname, a ` +
    'spelling or a name alike in sound, part of a double name, names swapped, a married surname, the day ' +
    'and month exchanged, a date a few days, a digit or two out. ' +
    `The parameters, and those required, are the search's; 'limit' (1 to ${MAX_SUGGESTIONS}, default 5) ` +
    'caps the candidates. ' +
    'Each candidate has a score (the probability, 0 to 1, that it is the registration sought; the same ' +
    'query always gives the same order, by probability then system number), what each detail matched (a ' +
    'fixed vocabulary, docs/search.md) and the evidence it added, and the record as a lookup renders it ' +
    'for this caller (a blocked one only its id and blocked flag). ' +
    'Candidates under SUGGEST_MIN_PROBABILITY are never returned; candidates are found through any two ' +
    'details right, each blocking pass bringing at most its cap of records (docs/search.md). ' +
    `Needs the '${SUGGEST_ROLE}' role as well as '${record.name}'. Every answer is audited (operation ` +
    'suggest, naming the registrations returned) and counts against the rate limit.'
  );
}

interface SuggestionRoutesOptions {
  readonly views: readonly CompiledView[];
  readonly store: RecordReader;
  /**
   * Where close matches are found, when not by `closeMatches` over `store` on the event loop (a thread
   * holding the index).
   */
  readonly find?: CloseMatcher;
  /** SUGGEST_MIN_PROBABILITY. */
  readonly minProbability: number;
  readonly rendered: RenderCache;
  /** The watch on enumeration (enumeration-watch.ts), shared with verifications. */
  readonly enumeration: FalseShareMonitor;
}

type Query = Record<string, string | undefined>;

export async function suggestionRoutes(
  app: FastifyInstance,
  { views, store, find, minProbability, rendered, enumeration }: SuggestionRoutesOptions,
) {
  const matcher: CloseMatcher = find ?? ((type, query, options) => closeMatches(store, type, query, options));
  for (const view of views.filter((v) => v.version === 'v1')) {
    const dataset = view.record.name;
    const { parties } = view.record.search;
    const names = { surname: view.query.surname, forenames: view.query.forenames, date: view.query.date };
    const matchedJson = (matched: Matched) =>
      JSON.stringify({
        [names.surname]: matched.surname,
        [names.forenames]: matched.forenames,
        [names.date]: matched.date,
      });
    // The names each party of a record is registered with, as written.
    const registeredNames = `registered names of ${dataset}`;
    const namesOf = (data: unknown) => ({
      surname: parties.map((party) => readPath(data, party.surname)),
      forenames: parties.map((party) => readPath(data, party.forenames)),
    });
    const weightsJson = (weights: Weights) =>
      JSON.stringify({
        [names.surname]: weights.surname,
        [names.forenames]: weights.forenames,
        [names.date]: weights.date,
      });

    app.get<{ Querystring: Query }>(
      suggestionPath(dataset),
      {
        schema: {
          tags: [dataset, 'suggestions'],
          operationId: `suggest${view.schemaName}`,
          summary: `Close matches among ${view.record.title.toLowerCase()}s, for a person to judge`,
          description: suggestionDescription(view),
          querystring: suggestionParameters(view),
          response: {
            200: answer('The close matches, best first', suggestionResponse(view, schemaRef(view.schemaName))),
            ...RECORD_ERRORS,
            403: errorResponse(
              `The caller lacks the '${SUGGEST_ROLE}' role or the '${dataset}' role, or its client ` +
                'certificate breaks the on-boarding rules',
            ),
          },
        },
        ...documentationOnly,
        config: { dataset, operation: 'suggest' } satisfies RecordRouteConfig,
      },
      async (request, reply) => {
        const query = request.query;
        const key = searchKeyOf(view, query);
        const limit = query.limit === undefined ? DEFAULT_SUGGESTIONS : Number(query.limit);
        const { matches, truncated } = await storeUnavailable(() => matcher(dataset, key, { limit, minProbability }));
        const texts = await storeUnavailable(() =>
          store.lookupManyJson(
            dataset,
            matches.map((c) => c.id),
          ),
        );
        const kept = matches.flatMap((candidate, i) =>
          texts[i] === undefined ? [] : [{ ...candidate, text: texts[i] }],
        );
        const audience = audienceOf(request);
        const items = await request.renderWhileAudited(
          refsOf(
            dataset,
            kept.map((candidate) => candidate.id),
          ),
          () =>
            kept.map((candidate) => {
              // Equal after normalisation, and written as the register has it (not only alike after it)?
              // The registered names are read only for a name that matched exactly, and kept with the
              // record's renderings: parsing each record at every answer was about half of what the route
              // itself cost.
              const registered = (path: 'surname' | 'forenames') => () =>
                rendered.derived(candidate.text, registeredNames, namesOf)[path];
              const matched: Matched = {
                ...candidate.matched,
                surname: namedExactly(candidate.matched.surname, query[names.surname], registered('surname')),
                forenames: namedExactly(candidate.matched.forenames, query[names.forenames], registered('forenames')),
              };
              return (
                `{"score":${candidate.score},"matched":${matchedJson(matched)},` +
                `"weights":${weightsJson(candidate.weights)},"record":${rendered.json(view, audience, candidate.text)}}`
              );
            }),
        );
        enumeration.record((request.identity as Identity).client, dataset, (kept[0]?.score ?? 0) >= FOUND_PROBABILITY);
        return reply.type('application/json').send(`{"candidates":[${items.join(',')}],"truncated":${truncated}}`);
      },
    );
  }
}
