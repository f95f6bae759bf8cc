/**
 * Close matches, offered when a search finds nothing: the same details sent to the suggestions
 * route, the candidates closest first, each with a sentence for each detail (close-matches.ts).
 */
import type { RecordType } from '@lev-api/client';
import type { FastifyInstance } from 'fastify';
import { candidateViews } from '../close-matches.ts';
import { longDate } from '../dates.ts';
import { type Values, readForm, searchFields } from '../forms.ts';
import type { Pages } from '../pages.ts';

export function closeMatchesPage(app: FastifyInstance, { typeOf, signedIn, page, context, refused, nounOf }: Pages) {
  app.get<{ Params: { type: string }; Querystring: Values }>('/ui/:type/close-matches', async (request, reply) => {
    const description = typeOf(request.params.type);
    if (!description) return reply.callNotFound();
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const type = description.name as RecordType;
    const { byNames } = searchFields(description);
    const names = readForm(byNames, request.query);
    // The details come from the search form; a link altered by hand goes back to it.
    if (Object.keys(names.errors).length) return reply.redirect(`/ui/${type}/search`, 303);
    try {
      const answer = await signed.lev.suggest(type, names.params as never);
      const parties = description.search.parties;
      return page(
        reply,
        'close-matches.njk',
        context(signed.session, `Close matches: ${nounOf(type)} registrations`, {
          type,
          noun: nounOf(type),
          given: byNames.map((field) => ({
            key: { text: field.label },
            value: { text: field.kind === 'date' ? longDate(names.params[field.name]) : names.params[field.name] },
          })),
          headings: [
            'System number',
            ...parties.map((_, i) => (parties.length > 1 ? `Party ${i + 1}` : 'Name')),
            'Date',
            'Chance it is the one',
            'Why it matched',
          ],
          candidates: candidateViews(description, names.params, answer.candidates),
          truncated: answer.truncated,
          searchAgain: `/ui/${type}/search?${new URLSearchParams(
            Object.entries(request.query).filter(
              (entry): entry is [string, string] => entry[0] !== 'submitted' && entry[1] !== undefined,
            ),
          )}`,
        }),
      );
    } catch (error) {
      return refused(reply, signed.session, error);
    }
  });
}
