/**
 * Finding a registration: the search form (by system number, or by names and date), and its
 * results: one registration found goes straight to it, several are listed, and none found offers
 * close matches where the caseworker's roles allow.
 */
import { LevApiError, type RecordType } from '@lev-api/client';
import type { FastifyInstance } from 'fastify';
import { readPath } from '../../records/define.ts';
import { SUGGEST_ROLE } from '../../model/identity.ts';
import { type FieldErrors, type Values, parameterNamed, readForm, searchFields } from '../forms.ts';
import type { Pages } from '../pages.ts';

export function searchPages(
  app: FastifyInstance,
  { typeOf, signedIn, page, context, refused, formErrors, nounOf, labelOf }: Pages,
) {
  app.get<{ Params: { type: string }; Querystring: Values }>('/ui/:type/search', async (request, reply) => {
    const description = typeOf(request.params.type);
    if (!description) return reply.callNotFound();
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const type = description.name as RecordType;
    const { byNumber, byNames } = searchFields(description);
    const values = request.query;
    const form = (fieldErrors: FieldErrors, status = 200) =>
      page(
        reply,
        'search.njk',
        context(signed.session, `Find a ${nounOf(type)} registration`, {
          type,
          noun: nounOf(type),
          byNumber,
          byNames,
          values,
          ...formErrors([...byNumber, ...byNames], fieldErrors),
        }),
        status,
      );
    if (!values.submitted) return form({});

    const number = readForm(byNumber, values);
    if (Object.keys(number.errors).length) return form(number.errors, 400);
    try {
      if (number.params.systemNumber) return reply.redirect(`/ui/${type}/${Number(number.params.systemNumber)}`, 303);
      const names = readForm(byNames, values);
      if (Object.keys(names.errors).length) return form(names.errors, 400);
      const found = await signed.lev.search(type, names.params as never);
      if (found.records.length === 1 && !found.truncated)
        return reply.redirect(`/ui/${type}/${(found.records[0] as { id: number }).id}`, 303);
      const parties = description.search.parties;
      // Nothing found by names and date: the same details, searched for close matches, where the roles allow.
      const { roles } = signed.session.user!;
      const closeMatches =
        found.records.length === 0 && roles.includes(SUGGEST_ROLE)
          ? `/ui/${type}/close-matches?${new URLSearchParams(
              Object.entries(values).filter(
                (entry): entry is [string, string] => entry[0] !== 'systemNumber' && entry[1] !== undefined,
              ),
            )}`
          : undefined;
      return page(
        reply,
        'results.njk',
        context(signed.session, `${labelOf(type)} found`, {
          type,
          noun: nounOf(type),
          truncated: found.truncated,
          closeMatches,
          headings: [
            'System number',
            ...parties.map((_, i) => (parties.length > 1 ? `Party ${i + 1}` : 'Name')),
            'Date',
          ],
          rows: found.records.map((record) => ({
            id: (record as { id: number }).id,
            cells: [
              ...parties.map((party) =>
                [readPath(record, party.forenames), readPath(record, party.surname)].filter(Boolean).join(' '),
              ),
              String(readPath(record, description.verification.date.path) ?? ''),
            ],
          })),
        }),
      );
    } catch (error) {
      if (error instanceof LevApiError && error.status === 400) {
        const named = parameterNamed(error.message);
        const field = [...byNumber, ...byNames].find((f) => f.name === named) ?? byNames[0];
        return form({ [field.name]: error.message.replace(/^[^:]*: ?/, 'Check this: ') }, 400);
      }
      return refused(reply, signed.session, error);
    }
  });
}
