/**
 * GET /api/v0/audit/user-activity: accesses per user per day, for callers
 * with the `audit` role.
 */
import type { FastifyInstance } from 'fastify';
import { userActivity } from '../audit/activity.ts';
import type { SqlExecutor } from '../store/driver.ts';
import { ApiError, serviceUnavailable } from './errors.ts';
import { EXPECTED } from './parameters.ts';

export const AUDIT_ROLE = 'audit';
export const USER_ACTIVITY_PATH = '/api/v0/audit/user-activity';

const day = (description: string) => ({
  type: 'string',
  format: 'date',
  description,
  [EXPECTED]: 'a real calendar date written YYYY-MM-DD, e.g. 2026-01-31',
});
const word = (description: string) => ({ type: 'string', minLength: 1, maxLength: 200, description, [EXPECTED]: '1 to 200 characters' });

export const userActivityQuery = {
  type: 'object',
  properties: {
    from: day('First day (UTC) counted; default 1970-01-01'),
    to: day('Last day (UTC) counted; default today'),
    user: word('Only this username'),
    group: word('Only callers in this group'),
    operation: {
      type: 'string',
      enum: ['lookup', 'search', 'verify'],
      description: 'Only lookups, only searches or only verifications',
      [EXPECTED]: 'lookup, search or verify',
    },
    dataset: word('Only this dataset: birth, death, marriage or partnership'),
  },
} as const;

export async function auditRoutes(app: FastifyInstance, { db }: { db: SqlExecutor }) {
  app.get<{ Querystring: Record<string, string | undefined> }>(
    USER_ACTIVITY_PATH,
    { schema: { querystring: userActivityQuery }, config: { requiresIdentity: true } },
    async (request) => {
      if (!request.identity?.roles.includes(AUDIT_ROLE)) {
        throw new ApiError(403, 'Forbidden', `The audit report needs the '${AUDIT_ROLE}' role`);
      }
      const { from = '1970-01-01', to = new Date().toISOString().slice(0, 10), ...filters } = request.query;
      try {
        return await userActivity(db, { from, to, ...filters });
      } catch (error) {
        throw Object.assign(serviceUnavailable('The audit trail is unavailable; try again shortly'), { cause: error });
      }
    },
  );
}
