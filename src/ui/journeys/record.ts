/** The record page: one registration, as the caseworker's roles let the API render it (record-page.ts). */
import { LevApiError, type RecordType } from '@lev-api/client';
import type { FastifyInstance } from 'fastify';
import { isSystemNumber } from '../../records/system-number.ts';
import { capitalised } from '../../records/wording.ts';
import { AUDIT_ROLE, type Pages } from '../pages.ts';
import { recordPage as recordView } from '../record-page.ts';

export function recordPage(app: FastifyInstance, { typeOf, signedIn, page, context, refused, nounOf }: Pages) {
  app.get<{ Params: { type: string; id: string } }>('/ui/:type/:id', async (request, reply) => {
    const description = typeOf(request.params.type);
    if (!description || !isSystemNumber(request.params.id)) return reply.callNotFound();
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const type = description.name as RecordType;
    try {
      const record = await signed.lev.lookup(type, request.params.id);
      const canAudit = signed.session.user!.roles.includes(AUDIT_ROLE);
      return page(reply, 'record.njk', context(signed.session, `${capitalised(nounOf(type))} record`, { type, noun: nounOf(type), page: recordView(description, record), canAudit }));
    } catch (error) {
      if (error instanceof LevApiError && error.status === 404) {
        return page(reply, 'error.njk', context(signed.session, 'No such registration', { message: `No ${nounOf(type)} registration has that system number.` }), 404);
      }
      return refused(reply, signed.session, error);
    }
  });
}
