/** The start page: what the caseworker's roles allow, per event type. */
import type { FastifyInstance } from 'fastify';
import { AUDIT_ROLE, type Pages } from '../pages.ts';

export function startPage(app: FastifyInstance, { records, signedIn, page, context, nounOf, labelOf }: Pages) {
  app.get('/ui', async (request, reply) => {
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const { roles } = signed.session.user!;
    return page(
      reply,
      'start.njk',
      context(signed.session, 'Start', {
        types: records.map((d) => ({
          name: d.name,
          label: labelOf(d.name),
          noun: nounOf(d.name),
          canRead: roles.includes(d.name),
          canVerify: roles.includes(d.name) || roles.includes(`${d.name}-verify`),
        })),
        canAudit: roles.includes(AUDIT_ROLE),
      }),
    );
  });
}
