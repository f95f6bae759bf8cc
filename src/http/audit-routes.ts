/**
 * The audit role's reading of the trail, for callers with the `audit` role where roles are
 * enforced (see `enforcesRoles`): GET /api/v0/audit/user-activity, accesses per user per day;
 * GET /api/v0/audit/entries, one user's accesses themselves (the report's drill-down);
 * GET /api/v0/audit/records/{type}/{id}, who saw a registration; GET /api/v0/audit/checkpoints,
 * the signed checkpoints for witnesses to keep. Every reading is itself audited (`audit-read`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STORABLE_TEXT_PATTERN } from '../load/storable.ts';
import { AUDIT_OPERATIONS, type AuditReport, ENTRIES_LIMIT, MAX_ENTRIES_LIMIT } from '../model/audit.ts';
import { unavailableUnless } from '../errors.ts';
import { EXPECTED } from './parameters.ts';
import { TRUNCATED_HEADER } from './route-config.ts';
import { ISO_DATE_PATTERN } from '../records/dates.ts';
import { inWords } from '../records/wording.ts';
import { AUDIT_ROLE } from '../model/identity.ts';
import { RECORD_ERRORS, answer, errorResponse } from './documentation.ts';

const USER_ACTIVITY_PATH = '/api/v0/audit/user-activity';
const AUDIT_ENTRIES_PATH = '/api/v0/audit/entries';
const RECORD_ACCESSES_PATH = '/api/v0/audit/records/{type}/{id}';
const CHECKPOINTS_PATH = '/api/v0/audit/checkpoints';

const day = (description: string) => ({
  type: 'string',
  format: 'date',
  pattern: ISO_DATE_PATTERN,
  description,
  [EXPECTED]: 'a real calendar date written YYYY-MM-DD, e.g. 2026-01-31',
});
const word = (description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: 200,
  // Compared with text in the database, which cannot hold some characters: refused here, not there.
  pattern: STORABLE_TEXT_PATTERN,
  description,
  [EXPECTED]: '1 to 200 characters, none of them NUL',
});
const operation = {
  type: 'string',
  enum: AUDIT_OPERATIONS,
  description: `Only accesses of this kind: ${AUDIT_OPERATIONS.join(', ')}`,
  [EXPECTED]: `one of ${AUDIT_OPERATIONS.join(', ')}`,
} as const;
/** The record types' datasets, in words: "birth, death, marriage or partnership". */
const datasetsOf = (types: readonly string[]) => inWords(types, 'or');
const dataset = (types: readonly string[]) => word(`Only this dataset: ${datasetsOf(types)}`);

/** The report's query, for these record types. */
const userActivityQuery = (types: readonly string[]) =>
  ({
    type: 'object',
    properties: {
      from: day('First day (UTC) counted; default 1970-01-01'),
      to: day('Last day (UTC) counted; default today'),
      user: word(
        "Only usernames containing this text, e.g. '@hmrc.gov.uk' for a group of users. Case-sensitive; " +
          'every character is taken literally, % and _ included',
      ),
      group: word('Only callers in this group (the whole group name)'),
      operation,
      dataset: dataset(types),
    },
  }) as const;

const limit = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_ENTRIES_LIMIT,
  default: ENTRIES_LIMIT,
  description:
    `At most this many entries, the newest; default ${ENTRIES_LIMIT}. When more matched, the ` +
    `${TRUNCATED_HEADER} header is true`,
  [EXPECTED]: `a whole number from 1 to ${MAX_ENTRIES_LIMIT}`,
} as const;

/** The drill-down's query, for these record types. */
const auditEntriesQuery = (types: readonly string[]) =>
  ({
    type: 'object',
    // Unlike the report's, a mistyped filter here (`operations=search`) would answer a different
    // question about a named person without saying so: refused, naming the parameters there are.
    additionalProperties: false,
    required: ['user'],
    properties: {
      user: word(
        'The username whose accesses are listed: the whole of it, compared exactly (case-sensitive), not a ' +
          "part as the report's 'user' filter",
      ),
      from: day('First day (UTC) listed; default 1970-01-01'),
      to: day('Last day (UTC) listed; default today'),
      operation,
      dataset: dataset(types),
      limit,
    },
  }) as const;

/** An entry of the trail as the audit routes give it, for these record types. */
const auditEntrySchema = (types: readonly string[]) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['at', 'username', 'client', 'groups', 'dataset', 'operation', 'path', 'query', 'results', 'requestId'],
    properties: {
      at: {
        type: 'string',
        format: 'date-time',
        description: 'When the access was answered: ISO 8601, UTC, milliseconds',
      },
      username: { type: 'string', description: 'The person or system that called' },
      client: { type: 'string', description: 'The client (department service) it called through' },
      groups: { type: 'array', items: { type: 'string' }, description: "The caller's groups" },
      dataset: { type: 'string', description: datasetsOf(types) },
      operation: { type: 'string', enum: operation.enum, description: AUDIT_OPERATIONS.join(', ') },
      path: { type: 'string', description: `The path asked, e.g. /v1/registration/${types[0]}/123456789 for a lookup` },
      query: {
        type: 'string',
        description: 'The query string as sent, percent-encoded, without the ?; empty for a lookup',
      },
      results: {
        type: 'integer',
        minimum: 0,
        description: 'Records returned (a lookup 1); for a verification, 1 when it answered verified, 0 when not',
      },
      requestId: { type: 'string', description: "The request's id (its x-request-id)" },
      records: {
        type: 'array',
        description:
          'The registrations the access disclosed or decided on: a lookup its record, a search the records ' +
          'returned, a verification its candidates',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'id'],
          properties: { type: { type: 'string' }, id: { type: 'integer' } },
        },
      },
    },
  }) as const;

const recordAccessesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: day('First day (UTC) listed; default 1970-01-01'),
    to: day('Last day (UTC) listed; default today'),
    limit,
  },
} as const;

const recordAccessesParams = (types: readonly string[]) =>
  ({
    type: 'object',
    required: ['type', 'id'],
    properties: {
      type: { type: 'string', enum: types, description: 'The record type', [EXPECTED]: types.join(', ') },
      id: {
        type: 'string',
        pattern: '^[0-9]{1,15}$',
        description: "The registration's id",
        [EXPECTED]: 'a number of 1 to 15 digits',
      },
    },
  }) as const;

const CHECKPOINTS_LIMIT = 100;
const checkpointsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: {
      ...limit,
      default: CHECKPOINTS_LIMIT,
      description: `At most this many checkpoints, the newest; default ${CHECKPOINTS_LIMIT}`,
    },
  },
} as const;

const checkpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['at', 'entries', 'origin', 'heads', 'previous', 'hash', 'publicKey', 'signature'],
  properties: {
    at: { type: 'string', format: 'date-time', description: 'When it was taken' },
    entries: { type: 'integer', minimum: 0, description: 'Entries in the trail then' },
    origin: {
      type: 'string',
      description: 'The hash that ended the chain written before writers had chains of their own',
    },
    heads: {
      type: 'array',
      description: "Every writer's last entry then: its place in the writer's chain and its hash",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['writer', 'seq', 'hash'],
        properties: { writer: { type: 'string' }, seq: { type: 'integer', minimum: 1 }, hash: { type: 'string' } },
      },
    },
    previous: { type: 'string', description: 'The hash of the checkpoint before it (64 zeros for the first)' },
    hash: { type: 'string', description: 'SHA-256 over what it states' },
    publicKey: { type: 'string', description: 'The Ed25519 public key that signed it: SPKI DER, base64' },
    signature: { type: 'string', description: 'Ed25519 over the hash, base64' },
  },
} as const;

/**
 * Newest first. Truncation is told as the searches tell it, by TRUNCATED_HEADER: one signal across the API,
 * which the typed client already reads.
 * The entry has an `$id`: the document names it (components AuditEntry) where both routes refer to it.
 */
const auditEntriesResponse = (types: readonly string[], description: string) =>
  answer(description, {
    headers: {
      [TRUNCATED_HEADER]: {
        description: 'Present and true when more entries matched than were returned',
        type: 'string',
        enum: ['true'],
      },
    },
    type: 'array',
    items: { $id: 'AuditEntry', title: 'Audit entry', ...auditEntrySchema(types) },
  });

/** What every route of the audit trail may answer besides its 200. */
const AUDIT_ERRORS = {
  400: RECORD_ERRORS[400],
  401: RECORD_ERRORS[401],
  403: errorResponse(`The caller lacks the '${AUDIT_ROLE}' role`),
  503: errorResponse('The audit trail is unavailable; retry later'),
} as const;

type Days = { from?: string; to?: string };
type EntriesQuery = Days & { user: string; operation?: string; dataset?: string; limit?: number };

/** The query with its days (UTC) filled in: from the start of the trail to today unless given. */
const withDays = <Q extends Days>({ from = '1970-01-01', to = new Date().toISOString().slice(0, 10), ...rest }: Q) => ({
  ...rest,
  from,
  to,
});

/** A failing trail means the report cannot be read now; the caller may retry. */
const trailUnavailable = unavailableUnless('The audit trail is unavailable; try again shortly');

/**
 * `limit` as the number its schema declares: queries are not coerced (a name of digits stays a
 * name), so this one is read before validation. Anything but digits is left for the schema to refuse.
 */
async function numericLimit(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  if (typeof query.limit === 'string' && /^[0-9]{1,9}$/.test(query.limit)) query.limit = Number(query.limit);
}

interface AuditRoutesOptions {
  readonly report: AuditReport;
  /** The record types whose registrations can be asked about. */
  readonly types: readonly string[];
}

export async function auditRoutes(app: FastifyInstance, { report, types }: AuditRoutesOptions) {
  /** Reads the trail for an auditor. */
  const read = <T>(request: FastifyRequest, reading: () => Promise<T>, count: (value: T) => number): Promise<T> =>
    request.readByAuditor('The audit report needs', () => trailUnavailable(reading), count);

  app.get<{ Querystring: Record<string, string | undefined> }>(
    USER_ACTIVITY_PATH,
    {
      schema: {
        tags: ['audit'],
        operationId: 'userActivity',
        summary: 'Accesses per user per day, from the audit trail',
        description:
          `Needs the '${AUDIT_ROLE}' role (in the mock, any identified caller may read it unless ` +
          'MOCK_ENFORCE_ROLES is set). Counts every lookup and search that returned data.',
        querystring: userActivityQuery(types),
        response: {
          200: answer('For each username, for each day (UTC, YYYY-MM-DD), the number of accesses', {
            type: 'object',
            additionalProperties: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 } },
          }),
          ...AUDIT_ERRORS,
        },
      },
      config: { requiresIdentity: true },
    },
    (request) =>
      read(
        request,
        () => report.userActivity(withDays(request.query)),
        (users) => Object.keys(users).length,
      ),
  );

  app.get<{ Querystring: EntriesQuery }>(
    AUDIT_ENTRIES_PATH,
    {
      schema: {
        tags: ['audit'],
        operationId: 'auditEntries',
        summary: "One user's accesses, from the audit trail",
        description:
          "The audit report's drill-down: the entries of one username (the whole of it, not a part) over " +
          "the days asked, newest first, at most 'limit' of them; when more matched, the " +
          `${TRUNCATED_HEADER} header is true. ` +
          `Needs the '${AUDIT_ROLE}' role, as the report does. A parameter not listed is refused (400).`,
        querystring: auditEntriesQuery(types),
        response: {
          200: auditEntriesResponse(types, "The user's entries, newest first (an empty array when there are none)"),
          ...AUDIT_ERRORS,
        },
      },
      config: { requiresIdentity: true },
      preValidation: numericLimit,
    },
    async (request, reply) => {
      const page = await read(
        request,
        () => report.entries(withDays(request.query)),
        (found) => found.entries.length,
      );
      if (page.truncated) reply.header(TRUNCATED_HEADER, 'true');
      return page.entries;
    },
  );

  app.get<{ Params: { type: string; id: string }; Querystring: Days & { limit?: number } }>(
    RECORD_ACCESSES_PATH.replace('{type}', ':type').replace('{id}', ':id'),
    {
      schema: {
        tags: ['audit'],
        operationId: 'recordAccesses',
        summary: 'Who saw a registration, from the audit trail',
        description:
          'Every access that disclosed or decided on the registration (a lookup of it, a search that ' +
          'returned it, a verification that compared it) over the days asked, ' +
          "newest first, with its time, user, client and operation; at most 'limit', and when more matched " +
          `the ${TRUNCATED_HEADER} header is true. ` +
          `Needs the '${AUDIT_ROLE}' role. Reading it is itself audited (operation audit-read).`,
        params: recordAccessesParams(types),
        querystring: recordAccessesQuery,
        response: {
          200: auditEntriesResponse(types, 'The accesses, newest first (an empty array when there are none)'),
          ...AUDIT_ERRORS,
        },
      },
      config: { requiresIdentity: true },
      preValidation: numericLimit,
    },
    async (request, reply) => {
      const { type, id } = request.params;
      const filter = { ...withDays(request.query), type, id: Number(id) };
      const page = await read(
        request,
        () => report.recordAccesses(filter),
        (found) => found.entries.length,
      );
      if (page.truncated) reply.header(TRUNCATED_HEADER, 'true');
      return page.entries;
    },
  );

  app.get<{ Querystring: { limit?: number } }>(
    CHECKPOINTS_PATH,
    {
      schema: {
        tags: ['audit'],
        operationId: 'auditCheckpoints',
        summary: "The audit trail's signed checkpoints",
        description:
          "Checkpoints taken every AUDIT_CHECKPOINT_S: the trail's size and every writer's head, signed " +
          'with Ed25519, newest first. ' +
          "A witness keeps them elsewhere; 'lev-api audit verify --checkpoint FILE' then proves that " +
          'nothing the trail held at a checkpoint has changed. ' +
          `Needs the '${AUDIT_ROLE}' role. Reading them is itself audited (operation audit-read).`,
        querystring: checkpointsQuery,
        response: {
          200: answer('The checkpoints, newest first', {
            type: 'array',
            items: { $id: 'AuditCheckpoint', title: 'Audit checkpoint', ...checkpointSchema },
          }),
          ...AUDIT_ERRORS,
        },
      },
      config: { requiresIdentity: true },
      preValidation: numericLimit,
    },
    (request) =>
      read(
        request,
        () => report.checkpoints(request.query.limit ?? CHECKPOINTS_LIMIT),
        (list) => list.length,
      ),
  );
}
