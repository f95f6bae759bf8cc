/** The record page: one registration, as the caseworker's roles let the API render it (record-page.ts). */
import { LevApiError } from '@lev-api/client';
import type { FastifyInstance } from 'fastify';
import { capitalised } from '../../records/wording.ts';
import { AUDIT_ROLE, type Pages } from '../pages.ts';
import { recordPage as recordView } from '../record-page.ts';

export function recordPage(app: FastifyInstance, { registrationOf, page, context, refused, nounOf }: Pages) {
  app.get<{ Params: { type: string; id: string } }>('/ui/:type/:id', async (request, reply) => {
    const found = await registrationOf(request, reply);
    if (!found) return reply;
    const { signed, description, type, id } = found;
    try {
      const record = await signed.lev.lookup(type, id);
      const canAudit = signed.session.user!.roles.includes(AUDIT_ROLE);
      return page(
        reply,
        'record.njk',
        context(signed.session, `${capitalised(nounOf(type))} record`, {
          type,
          noun: nounOf(type),
          page: recordView(description, record),
          canAudit,
        }),
      );
    } catch (error) {
      if (error instanceof LevApiError && error.status === 404) {
        return page(
          reply,
          'error.njk',
          context(signed.session, 'No such registration', {
            message: `No ${nounOf(type)} registration has that system number.`,
          }),
          404,
        );
      }
      return refused(reply, signed.session, error);
    }
  });
}
