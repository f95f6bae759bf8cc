/**
 * Who has seen a registration, for the audit role: every access that disclosed or decided on it,
 * linked from the record page as "Who has seen this record".
 */
import type { RecordType } from '@lev-api/client';
import type { FastifyInstance } from 'fastify';
import { ENTRIES_SHOWN, accessRows } from '../audit-entries.ts';
import type { Pages } from '../pages.ts';

export function recordAccessesPage(app: FastifyInstance, { typeOf, signedIn, page, context, refused, nounOf }: Pages) {
  app.get<{ Params: { type: string; id: string } }>('/ui/:type/:id/seen', async (request, reply) => {
    const description = typeOf(request.params.type);
    if (!description || !/^\d{1,15}$/.test(request.params.id)) return reply.callNotFound();
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const type = description.name as RecordType;
    const id = String(Number(request.params.id));
    try {
      const { entries, truncated } = await signed.lev.recordAccesses(type, id, { limit: ENTRIES_SHOWN });
      return page(
        reply,
        'record-accesses.njk',
        context(signed.session, `Who has seen ${nounOf(type)} registration ${id}`, {
          type,
          id,
          noun: nounOf(type),
          rows: accessRows(entries),
          truncated,
          shown: ENTRIES_SHOWN,
        }),
      );
    } catch (error) {
      return refused(reply, signed.session, error);
    }
  });
}
