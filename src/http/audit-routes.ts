/**
 * The audit role's reading of the trail, for callers with the `audit` role where roles are
 * enforced (see `enforcesRoles`): GET /api/v0/audit/user-activity, accesses per user per day, and
 * GET /api/v0/audit/entries, one user's accesses themselves (the report's drill-down).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorise } from '../auth/identify.ts';
import { STORABLE_TEXT_PATTERN } from '../data/storable.ts';
import { type AuditReport, ENTRIES_LIMIT, MAX_ENTRIES_LIMIT } from '../types/audit.ts';
import { unavailableUnless } from './errors.ts';
import { EXPECTED } from './parameters.ts';
import { TRUNCATED_HEADER } from './record-routes.ts';
import { ISO_DATE_PATTERN } from '../records/dates.ts';

export const AUDIT_ROLE = 'audit';
export const USER_ACTIVITY_PATH = '/api/v0/audit/user-activity';
export const AUDIT_ENTRIES_PATH = '/api/v0/audit/entries';

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
  enum: ['lookup', 'search', 'verify'],
  description: 'Only lookups, only searches or only verifications',
  [EXPECTED]: 'lookup, search or verify',
} as const;
const dataset = word('Only this dataset: birth, death, marriage or partnership');

export const userActivityQuery = {
  type: 'object',
  properties: {
    from: day('First day (UTC) counted; default 1970-01-01'),
    to: day('Last day (UTC) counted; default today'),
    user: word("Only usernames containing this text, e.g. '@hmrc.gov.uk' for a group of users. Case-sensitive; every character is taken literally, % and _ included"),
    group: word('Only callers in this group (the whole group name)'),
    operation,
    dataset,
  },
} as const;

export const auditEntriesQuery = {
  type: 'object',
  // Unlike the report's, a mistyped filter here (`operations=search`) would answer a different
  // question about a named person without saying so: refused, naming the parameters there are.
  additionalProperties: false,
  required: ['user'],
  properties: {
    user: word("The username whose accesses are listed: the whole of it, compared exactly (case-sensitive), not a part as the report's 'user' filter"),
    from: day('First day (UTC) listed; default 1970-01-01'),
    to: day('Last day (UTC) listed; default today'),
    operation,
    dataset,
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_ENTRIES_LIMIT,
      default: ENTRIES_LIMIT,
      description: `At most this many entries, the newest; default ${ENTRIES_LIMIT}. When more matched, the ${TRUNCATED_HEADER} header is true`,
      [EXPECTED]: `a whole number from 1 to ${MAX_ENTRIES_LIMIT}`,
    },
  },
} as const;

export const auditEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['at', 'username', 'client', 'groups', 'dataset', 'operation', 'path', 'query', 'results', 'requestId'],
  properties: {
    at: { type: 'string', format: 'date-time', description: 'When the access was answered: ISO 8601, UTC, milliseconds' },
    username: { type: 'string', description: 'The person or system that called' },
    client: { type: 'string', description: 'The client (department service) it called through' },
    groups: { type: 'array', items: { type: 'string' }, description: "The caller's groups" },
    dataset: { type: 'string', description: 'birth, death, marriage or partnership' },
    operation: { type: 'string', enum: operation.enum, description: 'lookup, search or verify' },
    path: { type: 'string', description: 'The path asked, e.g. /v1/registration/birth/123456789 for a lookup' },
    query: { type: 'string', description: 'The query string as sent, percent-encoded, without the ?; empty for a lookup' },
    results: { type: 'integer', minimum: 0, description: 'Records returned (a lookup 1); for a verification, 1 when it answered verified, 0 when not' },
    requestId: { type: 'string', description: "The request's id (its x-request-id)" },
  },
} as const;

/** Newest first. Truncation is told as the searches tell it, by TRUNCATED_HEADER: one signal across the API, which the typed client already reads. */
export const auditEntriesResponse = { type: 'array', items: auditEntrySchema } as const;

type Days = { from?: string; to?: string };
type EntriesQuery = Days & { user: string; operation?: string; dataset?: string; limit?: number };

/** The query with its days (UTC) filled in: from the start of the trail to today unless given. */
const withDays = <Q extends Days>({ from = '1970-01-01', to = new Date().toISOString().slice(0, 10), ...rest }: Q) => ({ ...rest, from, to });

/** A failing trail means the report cannot be read now; the caller may retry. */
const fromTrail = unavailableUnless('The audit trail is unavailable; try again shortly');

/**
 * `limit` as the number its schema declares: queries are not coerced (a name of digits stays a
 * name), so this one is read before validation. Anything but digits is left for the schema to refuse.
 */
async function numericLimit(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  if (typeof query.limit === 'string' && /^[0-9]{1,9}$/.test(query.limit)) query.limit = Number(query.limit);
}

export async function auditRoutes(app: FastifyInstance, { report, enforceRoles }: { report: AuditReport; enforceRoles: boolean }) {
  app.get<{ Querystring: Record<string, string | undefined> }>(
    USER_ACTIVITY_PATH,
    { schema: { querystring: userActivityQuery }, config: { requiresIdentity: true } },
    async (request) => {
      authorise(enforceRoles, request.identity, AUDIT_ROLE, 'The audit report needs');
      return fromTrail(() => report.userActivity(withDays(request.query)));
    },
  );

  app.get<{ Querystring: EntriesQuery }>(
    AUDIT_ENTRIES_PATH,
    {
      schema: { querystring: auditEntriesQuery, response: { 200: auditEntriesResponse } },
      config: { requiresIdentity: true },
      preValidation: numericLimit,
    },
    async (request, reply) => {
      authorise(enforceRoles, request.identity, AUDIT_ROLE, 'The audit report needs');
      const page = await fromTrail(() => report.entries(withDays(request.query)));
      if (page.truncated) reply.header(TRUNCATED_HEADER, 'true');
      return page.entries;
    },
  );
}
