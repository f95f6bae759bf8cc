/**
 * The certificate check: the type's verification parameters as a form; the answer is "the details
 * match" or "do not match", nothing of the record.
 */
import { LevApiError, type RecordType } from '@lev-api/client';
import type { FastifyInstance } from 'fastify';
import { type FieldErrors, type Values, parameterNamed, readForm, verificationFields } from '../forms.ts';
import type { Pages } from '../pages.ts';

export function verifyPages(
  app: FastifyInstance,
  { typeOf, signedIn, page, context, refused, formErrors, nounOf }: Pages,
) {
  app.get<{ Params: { type: string }; Querystring: Values }>('/ui/:type/verify', async (request, reply) => {
    const description = typeOf(request.params.type);
    if (!description) return reply.callNotFound();
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const type = description.name as RecordType;
    const formFields = verificationFields(description);
    const values = request.query;
    const title = `Check a ${nounOf(type)} certificate`;
    const form = (fieldErrors: FieldErrors, status = 200) =>
      page(
        reply,
        'verify.njk',
        context(signed.session, title, {
          type,
          noun: nounOf(type),
          formFields,
          values,
          ...formErrors(formFields, fieldErrors),
        }),
        status,
      );
    if (!values.submitted) return form({});
    const { params, errors } = readForm(formFields, values);
    if (Object.keys(errors).length) return form(errors, 400);
    try {
      const verified = await signed.lev.verify(type, params as never);
      return page(
        reply,
        'verify.njk',
        context(signed.session, verified ? 'The details match' : 'The details do not match', {
          type,
          noun: nounOf(type),
          answered: true,
          verified,
        }),
      );
    } catch (error) {
      if (error instanceof LevApiError && error.status === 400) {
        const field = formFields.find((f) => f.name === parameterNamed(error.message)) ?? formFields[0];
        return form({ [field.name]: error.message.replace(/^[^:]*: ?/, 'Check this: ') }, 400);
      }
      return refused(reply, signed.session, error);
    }
  });
}
