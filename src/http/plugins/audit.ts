/**
 * The audit trail around the routes: every access that discloses registrations or decides on them
 * is recorded before its data is sent. A request that will be audited is announced to the trail as
 * it arrives (the trail may hold its next group back briefly for it, trail.ts), and routes record
 * their access through what this plugin decorates the request with (`request.audited`,
 * `request.renderWhileAudited`, `request.readByAuditor`), so that none imports the trail's
 * helpers or is handed the trail itself. The trail is flushed when the app closes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { serviceUnavailable } from '../../errors.ts';
import { AUDIT_READ, type AuditEntry, type AuditTrail, type RecordRef } from '../../model/audit.ts';
import { AUDIT_ROLE, type Identity } from '../../model/identity.ts';
import type { RecordRouteConfig } from '../route-config.ts';
import { inSpan } from '../../tracing/spans.ts';
import type {} from './authorisation.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Ends the request's place among the accesses the audit trail expects an entry from (`AuditTrail.expect`). */
    auditExpected?: () => void;
    /** Records the access (`audited` below); data is sent only once its entry is committed. */
    audited(
      results: number,
      records: readonly RecordRef[] | undefined,
      route?: RecordRouteConfig,
      details?: Pick<AuditEntry, 'events' | 'fields'>,
    ): Promise<void>;
    /** Records the access and renders while its entry is committed (`renderWhileAudited` below). */
    renderWhileAudited<T>(records: readonly RecordRef[], render: () => T): Promise<T>;
    /**
     * A reading for the audit role: refused without it (where roles are enforced), and recorded
     * (`audit-read`, with how many things it returned) before it is answered: an auditor's reading
     * is an access too. `what` begins the refusal: "The audit report needs the 'audit' role".
     */
    readByAuditor<T>(what: string, reading: () => Promise<T>, count: (value: T) => number): Promise<T>;
  }
}

interface AuditOptions {
  readonly audit: AuditTrail;
}

/** The registrations of one type named by their ids, as an audit entry names what an access disclosed. */
export const refsOf = (type: string, ids: readonly number[]): RecordRef[] => ids.map((id) => ({ type, id }));

/** The answer to an access whose entry the trail could not take: its data is not sent. */
const unrecorded = (error: unknown): never => {
  throw Object.assign(
    serviceUnavailable('The access could not be recorded in the audit trail, so no data was sent; try again shortly'),
    { cause: error },
  );
};

/**
 * Records the access, naming the registrations it disclosed or decided on (`records`: none is
 * still a list, written as one, so that finding nothing costs the trail what finding one does;
 * undefined for an access that discloses no registration); data is sent only once its entry is
 * committed. `details` names a change-feed answer's events and fields. Chained rather than async,
 * as renderWhileAudited is, for the few promises a request makes (docs/performance.md#tracing).
 */
function audited(
  audit: AuditTrail,
  request: FastifyRequest,
  results: number,
  records: readonly RecordRef[] | undefined,
  { dataset, operation } = request.routeOptions.config as RecordRouteConfig,
  details: Pick<AuditEntry, 'events' | 'fields'> = {},
): Promise<void> {
  const identity = request.identity as Identity;
  const mark = request.url.indexOf('?');
  const [path, query] = mark < 0 ? [request.url, ''] : [request.url.slice(0, mark), request.url.slice(mark + 1)];
  return inSpan('audit.record', { 'lev.record.type': dataset, 'lev.result.count': results }, () => {
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
    return recorded;
  }).then(undefined, unrecorded);
}

/**
 * Records the access, then renders while its entry is being committed: rendering waits for the
 * event loop's next turn, by which time the audit trail has sent this turn's entries off (it too
 * starts from setImmediate), so the two overlap instead of adding up. Data is still sent only once
 * the entry is committed; a rendering that fails fails the request as before, its access recorded.
 */
function renderWhileAudited<T>(
  audit: AuditTrail,
  request: FastifyRequest,
  records: readonly RecordRef[],
  render: () => T,
): Promise<T> {
  const committed = audited(audit, request, records.length, records);
  return new Promise<T>((resolve, reject) => {
    // Whichever of the two ends last answers; a failure of either answers at once.
    let rendered: { readonly value: T } | undefined;
    let isCommitted = false;
    committed.then(() => {
      isCommitted = true;
      if (rendered) resolve(rendered.value);
    }, reject);
    setImmediate(() => {
      try {
        rendered = { value: inSpan('render', { 'lev.record.count': records.length }, render) };
      } catch (error) {
        return reject(error);
      }
      if (isCommitted) resolve(rendered.value);
    });
  });
}

export const auditPlugin = fp(
  async function auditTrail(app: FastifyInstance, { audit }: AuditOptions) {
    const expect = audit.expect?.bind(audit);
    app.decorateRequest('auditExpected', undefined);
    if (expect) {
      // A callback rather than an async function: no promise a request.
      app.addHook('onRequest', (request, reply, done) => {
        const route = request.routeOptions.config;
        // An access that will be audited: the trail may hold its next group back briefly for it (trail.ts).
        if (route.dataset || route.verifies) {
          const ended = expect();
          request.auditExpected = ended;
          // Its entry recorded (audited()), or the request over without one, its connection gone included.
          reply.raw.once('close', ended);
        }
        done();
      });
    }
    app.decorateRequest(
      'audited',
      function (
        this: FastifyRequest,
        results: number,
        records: readonly RecordRef[] | undefined,
        route?: RecordRouteConfig,
        details?: Pick<AuditEntry, 'events' | 'fields'>,
      ) {
        return audited(audit, this, results, records, route, details);
      },
    );
    app.decorateRequest('renderWhileAudited', function <
      T,
    >(this: FastifyRequest, records: readonly RecordRef[], render: () => T) {
      return renderWhileAudited(audit, this, records, render);
    });
    app.decorateRequest('readByAuditor', async function <
      T,
    >(this: FastifyRequest, what: string, reading: () => Promise<T>, count: (value: T) => number) {
      this.authorise(AUDIT_ROLE, what);
      const value = await reading();
      await audited(audit, this, count(value), undefined, AUDIT_READ);
      return value;
    });
    app.addHook('onClose', () => audit.flush());
  },
  { name: 'lev-audit', dependencies: ['lev-identity', 'lev-authorisation'] },
);
