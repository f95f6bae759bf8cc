/**
 * GET /v1/verification/{type}: whether the details a caller holds match one
 * current registration, answered `{"verified":true}` or `{"verified":false}`
 * and nothing else, whatever the reason for a false. Every answer takes the
 * same steps (search, read and compare at least CANDIDATE_FLOOR registrations,
 * audit), so neither the body nor the work done tells one reason from another.
 */
import type { FastifyInstance } from 'fastify';
import { Counter } from 'prom-client';
import type { RecordDescription } from '../records/define.ts';
import type { RecordReader } from '../model/store.ts';
import { type CompiledVerification, compileVerification } from '../records/verification.ts';
import type { FalseShareMonitor } from './false-share-monitor.ts';
import type { Identity } from '../model/identity.ts';
import { EXPECTED, dateParameter, nameParameter, systemNumberParameter } from './parameters.ts';
import { feedPositionHeaders, readOptionsOf } from './feed-position.ts';
import { type RecordRouteConfig, storeUnavailable } from './route-config.ts';
import { refsOf } from './plugins/audit.ts';
import { RECORD_ERRORS, answer, documentationOnly, errorResponse } from './documentation.ts';
import { verifyRole } from '../auth/identify.ts';
import { capitalised } from '../records/wording.ts';

/** How verification finds its candidates: the store's search, giving what it compares of each. */
type CandidateSearch = RecordReader['verificationCandidates'];

/**
 * The most candidates one verification compares. More registrations than this sharing the
 * person's surname, leading forenames and date cannot be told apart by the details either
 * (the answer is then false, as for any ambiguity); a cap keeps every answer's work bounded.
 */
const CANDIDATE_LIMIT = 100;

/**
 * The registrations every verification reads and compares at least: the candidates found, padded
 * out with others of the type. Up to this many found, the work (rows fetched, sent, parsed and
 * compared) is the same whatever the answer, so its time does not tell "no such registration"
 * from "a detail differs", nor one registration from a re-registered pair or three of a name.
 * Each one more costs every verification that finds fewer another row read and parsed.
 */
const CANDIDATE_FLOOR = 3;

export const verificationPath = (type: string) => `/v1/verification/${type}`;

const VERIFIED = '{"verified":true}';
const NOT_VERIFIED = '{"verified":false}';

const verificationResponse = {
  type: 'object',
  required: ['verified'],
  additionalProperties: false,
  properties: {
    verified: {
      type: 'boolean',
      description: 'Whether the details match exactly one current registration; false for every other case, alike',
    },
  },
} as const;

/** What the OpenAPI document says a type's verification does. */
function verificationDescription(record: RecordDescription): string {
  const title = record.title.toLowerCase();
  return (
    `Answers whether the details given match exactly one current ${title}, and nothing else of it. ` +
    (record.verification.names.length > 1 ? `Both parties are named, in either order. ` : '') +
    "Names and places are compared after the searches' normalisation (case, accents and apostrophes " +
    'ignored, hyphens and other punctuation as spaces); ' +
    "surnames and places must be equal; forenames equal, or the registered forenames' leading whole words " +
    'equal to those given (Anne verifies Anne Marie, never Annette); ' +
    'dates equal; every optional detail given must match as well (a place matches any one of the forms registered). ' +
    'The answer is {"verified": false}, the same bytes, when no registration matches, when several match ' +
    `and the details given do not tell them apart (or more than ${CANDIDATE_LIMIT} share the names and ` +
    'date), ' +
    'when the one that matches is blocked or cancelled, or replaced by a re-registration (the current ' +
    'registration of a chain is the one verified). ' +
    `A parameter not listed is refused (400). Needs the '${verifyRole(record.name)}' role, or ` +
    `'${record.name}'. Every verification is audited (operation verify).`
  );
}

/** Places are longer than names (a full address), and compared whole. */
const PLACE_LENGTH = 1000;

/**
 * The query schema of a type's verification, from the same builders as the searches' (so the same checks and
 * messages).
 */
function verificationParameters(compiled: CompiledVerification) {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const parameter of compiled.parameters) {
    const { name, description } = parameter;
    switch (parameter.compare) {
      case 'name':
        properties[name] = nameParameter(`${description}, matched in full`);
        break;
      case 'forenames':
        properties[name] = nameParameter(
          `${description}, matched as whole leading words: Anne verifies Anne Marie, not Annette`,
        );
        break;
      case 'place':
        properties[name] = {
          ...nameParameter(`${description}, matched in full`),
          maxLength: PLACE_LENGTH,
          [EXPECTED]: `1 to ${PLACE_LENGTH} characters, at least one a letter or digit, no control characters`,
        };
        break;
      case 'date':
        properties[name] = dateParameter(description);
        break;
      case 'id':
        properties[name] = systemNumberParameter(description);
        break;
    }
  }
  return {
    type: 'object',
    properties,
    required: compiled.parameters.filter((p) => p.required).map((p) => p.name),
    // A detail the service cannot compare must not pass for one that matched.
    additionalProperties: false,
  };
}

interface VerificationRoutesOptions {
  readonly records: readonly RecordDescription[];
  readonly candidates: CandidateSearch;
  /** The watch on enumeration (enumeration-watch.ts), shared with close matches. */
  readonly enumeration: FalseShareMonitor;
}

export async function verificationRoutes(
  app: FastifyInstance,
  { records, candidates: findCandidates, enumeration: monitor }: VerificationRoutesOptions,
) {
  const registers = app.hasDecorator('metricsRegistry') ? [app.metricsRegistry] : [];
  const answers = new Counter({
    name: 'lev_verifications_total',
    help: 'Verifications answered, by dataset and answer',
    labelNames: ['dataset', 'verified'] as const,
    registers,
  });
  for (const description of records) {
    const compiled = compileVerification(description);
    const dataset = description.name;
    // Bound once: labelling each answer anew costs more than the rest of the counting.
    const counted = { verified: answers.labels(dataset, 'true'), notVerified: answers.labels(dataset, 'false') };
    app.get<{ Querystring: Record<string, string | undefined> }>(
      verificationPath(dataset),
      {
        schema: {
          tags: [dataset, 'verification'],
          operationId: `verify${capitalised(dataset)}`,
          summary: `Verify the details of a ${description.title.toLowerCase()} without reading it`,
          description: verificationDescription(description),
          querystring: verificationParameters(compiled),
          headers: feedPositionHeaders,
          response: {
            200: answer('The answer, and nothing more', verificationResponse),
            ...RECORD_ERRORS,
            403: errorResponse(
              `The caller lacks the '${verifyRole(dataset)}' role (or '${dataset}'), or its client ` +
                'certificate breaks the on-boarding rules',
            ),
          },
        },
        ...documentationOnly,
        // The identity and authorisation plugins identify the caller and check the role before the query is
        // validated: a caller without it learns nothing.
        config: { verifies: dataset, operation: 'verify' },
      },
      async (request, reply) => {
        // A value with no letter or digit throws VerificationInputError, a 400 of its own.
        const query = compiled.read(request.query);
        const options = readOptionsOf(request);
        const candidates = await storeUnavailable(() =>
          findCandidates(dataset, query.key, CANDIDATE_LIMIT, CANDIDATE_FLOOR, options),
        );
        const verified = compiled.decide(candidates, query);
        // Compared as the candidates are, and the answer dropped: finding fewer takes the same comparing.
        compiled.decide({ records: candidates.padding ?? [], truncated: false }, query);
        // The candidates it was decided on, whichever the answer: each was compared with what the caller gave.
        await request.audited(verified ? 1 : 0, refsOf(dataset, candidates.ids), {
          dataset,
          operation: 'verify',
        } satisfies RecordRouteConfig);
        monitor.record((request.identity as Identity).client, dataset, verified);
        (verified ? counted.verified : counted.notVerified).inc();
        return reply.type('application/json').send(verified ? VERIFIED : NOT_VERIFIED);
      },
    );
  }
}
