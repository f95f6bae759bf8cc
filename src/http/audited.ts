/**
 * Recording an access in the audit trail before its data is sent, for every route that discloses
 * registrations or decides on them.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import { serviceUnavailable } from '../errors.ts';
import type { AuditEntry, AuditTrail, RecordRef } from '../types/audit.ts';
import type { Identity } from '../types/identity.ts';
import type { RecordRouteConfig } from './route-config.ts';
import { inSpan, inSpanSync } from '../tracing/spans.ts';

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
