/**
 * GET /api/v0/audit/user-activity: accesses per user per day, for callers
 * with the `audit` role where roles are enforced (see `enforcesRoles`).
 */
import type { FastifyInstance } from 'fastify';
import { authorise } from '../auth/identify.ts';
import { STORABLE_TEXT_PATTERN } from '../data/storable.ts';
import type { AuditReport } from '../types/audit.ts';
import { serviceUnavailable } from './errors.ts';
import { EXPECTED } from './parameters.ts';

export const AUDIT_ROLE = 'audit';
export const USER_ACTIVITY_PATH = '/api/v0/audit/user-activity';

const day = (description: string) => ({
  type: 'string',
  format: 'date',
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

export const userActivityQuery = {
  type: 'object',
  properties: {
    from: day('First day (UTC) counted; default 1970-01-01'),
    to: day('Last day (UTC) counted; default today'),
    user: word("Only usernames containing this text, e.g. '@hmrc.gov.uk' for a group of users. Case-sensitive; every character is taken literally, % and _ included"),
    group: word('Only callers in this group (the whole group name)'),
    operation: {
      type: 'string',
      enum: ['lookup', 'search', 'verify'],
      description: 'Only lookups, only searches or only verifications',
      [EXPECTED]: 'lookup, search or verify',
    },
    dataset: word('Only this dataset: birth, death, marriage or partnership'),
  },
} as const;

export async function auditRoutes(app: FastifyInstance, { report, enforceRoles }: { report: AuditReport; enforceRoles: boolean }) {
  app.get<{ Querystring: Record<string, string | undefined> }>(
    USER_ACTIVITY_PATH,
    { schema: { querystring: userActivityQuery }, config: { requiresIdentity: true } },
    async (request) => {
      authorise(enforceRoles, request.identity, AUDIT_ROLE, 'The audit report needs');
      const { from = '1970-01-01', to = new Date().toISOString().slice(0, 10), ...filters } = request.query;
      try {
        return await report.userActivity({ from, to, ...filters });
      } catch (error) {
        throw Object.assign(serviceUnavailable('The audit trail is unavailable; try again shortly'), { cause: error });
      }
    },
  );
}
