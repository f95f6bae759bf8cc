/**
 * Digital certificates in the pages: the record page's QR code for a printed certificate (issued
 * by the API as the caseworker, so it needs their `credentials` role and is audited), and "Check a
 * digital certificate": a pasted credential or QR code's content verified as a relying party
 * would, with the typed client's verifyCredential, showing what it discloses, whether it is
 * genuine and whether it still stands. The credential is posted, never put in an address.
 */
import {
  CredentialVerificationError,
  LevApiError,
  NotACredentialError,
  recordClaims,
  verifyCredential,
} from '@lev-api/client';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { claimName } from '../../credentials/claims.ts';
import { fieldAt } from '../../records/check.ts';
import { type Fields, type RecordDescription, isLeaf } from '../../records/define.ts';
import { capitalised } from '../../records/wording.ts';
import type { Pages } from '../pages.ts';

export interface CredentialPagesOptions {
  /** The issuer the pages trust: this process's (http/credential-routes.ts). */
  readonly issuer: () => string;
  /** How the pages reach the issuer's keys and status lists (in the mock, the API's own process). */
  readonly fetch: typeof fetch;
  /** Whether an http:// issuer is believed (the mock). */
  readonly allowHttp: boolean;
}

const MAX_CREDENTIAL = 20_000;

/** The label of a claim's path: its field's description, the top-level name mapped back when it was renamed. */
function labelOf(description: RecordDescription, path: string): string {
  const [first, ...rest] = path.split('.');
  const key = Object.keys(description.fields).find((name) => claimName(description.name, name) === first) ?? first;
  const field = fieldAt(description.fields as Fields, [key, ...rest].join('.'));
  return field && isLeaf(field) && field.description ? String(field.description) : path;
}

const rowsOf = (
  description: RecordDescription | undefined,
  claims: Record<string, unknown>,
  prefix = '',
): { label: string; value: string }[] =>
  Object.entries(claims).flatMap(([key, value]) => {
    const path = `${prefix}${key}`;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return rowsOf(description, value as Record<string, unknown>, `${path}.`);
    const text = Array.isArray(value)
      ? value
          .map((item) => (typeof item === 'object' ? Object.values(item as object).join(' ') : String(item)))
          .join('; ')
      : String(value);
    return [{ label: description ? labelOf(description, path) : path, value: text }];
  });

export function credentialPages(
  app: FastifyInstance,
  { registrationOf, signedIn, page, context, refused, nounOf, records }: Pages,
  options: CredentialPagesOptions,
) {
  const issuerOf = (_request: FastifyRequest) => options.issuer();

  app.get<{ Params: { type: string; id: string } }>('/ui/:type/:id/qr', async (request, reply) => {
    const found = await registrationOf(request, reply);
    if (!found) return reply;
    const { signed, type, id } = found;
    try {
      const svg = await signed.lev.credential(type, id, { format: 'qr', svg: true });
      return page(
        reply,
        'credential-qr.njk',
        context(signed.session, 'QR code for a printed certificate', { type, noun: nounOf(type), id, svg }),
      );
    } catch (error) {
      if (error instanceof LevApiError && [404, 409, 422].includes(error.status)) {
        return page(
          reply,
          'error.njk',
          context(signed.session, 'No QR code for this registration', { message: error.message }),
          error.status,
        );
      }
      return refused(reply, signed.session, error);
    }
  });

  const form = async (
    request: FastifyRequest,
    reply: Parameters<Pages['page']>[0],
    values: { credential?: string },
    error?: string,
  ) => {
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const errors = error ? [{ text: error, href: '#credential' }] : [];
    return page(
      reply,
      'credential-check.njk',
      context(signed.session, 'Check a digital certificate', { values, errors, error }),
      error ? 400 : 200,
    );
  };

  app.get('/ui/credentials/check', async (request, reply) => form(request, reply, {}));

  app.post<{ Body: { credential?: unknown; csrf?: unknown } }>('/ui/credentials/check', async (request, reply) => {
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    if (request.body?.csrf !== signed.session.csrf)
      return page(
        reply,
        'error.njk',
        context(signed.session, 'Check again', { message: 'The form had expired. Go back and check again.' }),
        403,
      );
    const credential = typeof request.body?.credential === 'string' ? request.body.credential.trim() : '';
    if (!credential) return form(request, reply, {}, 'Paste the digital certificate, or the content of its QR code');
    if (credential.length > MAX_CREDENTIAL)
      return form(
        request,
        reply,
        {},
        `A digital certificate is at most ${MAX_CREDENTIAL.toLocaleString('en-GB')} characters`,
      );
    try {
      const verified = await verifyCredential(credential, {
        trustedIssuers: [issuerOf(request)],
        allowHttp: options.allowHttp,
        fetch: options.fetch,
        requireKeyBinding: false,
      });
      const description = records.find((record) => record.name === verified.recordType);
      return page(
        reply,
        'credential-check.njk',
        context(
          signed.session,
          verified.stands ? 'The digital certificate is genuine' : 'The digital certificate no longer stands',
          {
            answered: true,
            genuine: true,
            stands: verified.stands,
            noun: description ? nounOf(description.name) : verified.recordType,
            kind: description ? capitalised(description.title) : verified.recordType,
            issuedAt: verified.issuedAt.toISOString().slice(0, 10),
            expiresAt: verified.expiresAt.toISOString().slice(0, 10),
            rows: rowsOf(description, recordClaims(verified)),
          },
        ),
      );
    } catch (error) {
      // Text that is no credential at all (a JWT of JSON null, say) is a mistake in the form, not a forgery.
      if (error instanceof NotACredentialError)
        return form(request, reply, {}, `That is not a digital certificate: ${error.message}`);
      if (!(error instanceof CredentialVerificationError)) throw error;
      return page(
        reply,
        'credential-check.njk',
        context(signed.session, 'The digital certificate is not genuine', {
          answered: true,
          genuine: false,
          reason: error.message,
        }),
      );
    }
  });
}
