/**
 * Signing in and out: the mock's sign-in form or the issuer's (OpenID Connect), the issuer's
 * return, sign-out, and the keep-alive the idle-timeout warning calls. The forms that change the
 * session are CSRF-checked.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { roleVocabulary } from '../../records/roles.ts';
import type { FieldErrors } from '../forms.ts';
import { SignInError } from '../oidc-sign-in.ts';
import type { Pages } from '../pages.ts';
import { type Session, newToken } from '../sessions.ts';

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function signInPages(app: FastifyInstance, pages: Pages) {
  const { records, signIn, sessions, page, context, sessionOf, heldSession, startSession, endSession } = pages;
  // Every role the service knows, the pages' QR code's `credentials` among them: a list of its own missed one.
  const roleNames = roleVocabulary(records);

  const roleItems = (chosen: readonly string[] = []) =>
    roleNames.map((role) => ({ value: role, text: role, checked: chosen.includes(role) }));
  const noticeOf = (query: { timedOut?: string; expired?: string }) =>
    query.timedOut
      ? 'You were signed out because you had not done anything for a while.'
      : query.expired
        ? 'Your sign-in has expired. Sign in again to go on.'
        : undefined;
  const csrfHolds = (given: unknown, session: Session) => typeof given === 'string' && sameText(given, session.csrf);
  const expired = (reply: FastifyReply, session: Session | undefined, what: string) =>
    page(
      reply,
      'error.njk',
      context(session ?? { csrf: '' }, `${what} again`, {
        message: `The form had expired. Go back and ${what.toLowerCase()} again.`,
      }),
      403,
    );

  app.get<{ Querystring: { timedOut?: string; expired?: string } }>('/ui/sign-in', async (request, reply) => {
    const { session } = await sessionOf(request, reply);
    const notice = noticeOf(request.query);
    if (signIn.mode === 'oidc')
      return page(reply, 'sign-in-oidc.njk', { ...context(session, 'Sign in'), user: undefined, notice });
    return page(reply, 'sign-in.njk', {
      ...context(session, 'Sign in'),
      user: undefined,
      notice,
      values: {},
      fieldErrors: {},
      roleItems: roleItems(),
    });
  });

  // The forms that change the session read it as it is: a form refused (a forged one, one from a
  // session that has ended) makes no session and sets no cookie over the caseworker's.
  app.post<{ Body: Record<string, string | string[] | undefined> }>('/ui/sign-in', async (request, reply) => {
    const held = await heldSession(request);
    const body = request.body ?? {};
    if (!held || !csrfHolds(body.csrf, held.session)) return expired(reply, held?.session, 'Sign in');
    const { id, session } = held;
    if (signIn.mode === 'oidc') {
      const { url, pending } = await signIn.oidc.start();
      await sessions.set(id, { csrf: session.csrf, pending });
      return reply.redirect(url, 303);
    }
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const chosen = ([] as string[]).concat(body.roles ?? []).filter((role) => roleNames.includes(role));
    const fieldErrors: FieldErrors = {};
    if (!/^[^\s,]{1,200}$/.test(username)) fieldErrors.username = 'Enter a username, without spaces or commas';
    if (!chosen.length) fieldErrors.roles = 'Select at least one role';
    if (Object.keys(fieldErrors).length) {
      const errors = Object.entries(fieldErrors).map(([field, text]) => ({ text, href: `#${field}` }));
      return page(
        reply,
        'sign-in.njk',
        {
          ...context(session, 'Sign in'),
          user: undefined,
          values: { username },
          fieldErrors,
          errors,
          roleItems: roleItems(chosen),
        },
        400,
      );
    }
    return startSession(reply, id, { user: { username, roles: chosen }, csrf: newToken() });
  });

  // Where the issuer sends the caseworker back, with the code (or its refusal) and the state.
  app.get('/ui/auth/callback', async (request, reply) => {
    if (signIn.mode !== 'oidc') return reply.callNotFound();
    const { id, session } = await sessionOf(request, reply);
    const failed = (message: string) =>
      page(
        reply,
        'error.njk',
        { ...context(session, 'You could not be signed in', { message }), user: undefined, retry: true },
        400,
      );
    if (!session.pending) return failed('The sign-in had expired, or was started in another browser. Sign in again.');
    try {
      const { user, tokens } = await signIn.oidc.finish(
        new URL(request.url, 'http://pages.invalid').searchParams,
        session.pending,
      );
      return await startSession(reply, id, { user, tokens, csrf: newToken() });
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      // The code, never the answer: it may hold personal data.
      request.log.warn({ code: error.code }, 'sign-in did not complete');
      await sessions.set(id, { csrf: session.csrf });
      return failed(
        error.code === 'access_denied'
          ? 'The sign-in was cancelled. Sign in again to go on.'
          : 'The sign-in could not be completed. Sign in again.',
      );
    }
  });

  app.post<{ Body: Record<string, string | undefined> }>('/ui/sign-out', async (request, reply) => {
    const held = await heldSession(request);
    if (!held || !csrfHolds(request.body?.csrf, held.session)) return expired(reply, held?.session, 'Sign out');
    const { id, session } = held;
    await endSession(reply, id);
    // At the issuer too, or its session would sign the caseworker straight back in.
    const issuerSignOut =
      signIn.mode === 'oidc' && session.tokens ? await signIn.oidc.signOutUrl(session.tokens) : undefined;
    return reply.redirect(issuerSignOut ?? '/ui/sign-in', 303);
  });

  app.get('/ui/keep-alive', async (request, reply) => {
    const { session } = await sessionOf(request, reply);
    return reply.code(session.user ? 204 : 401).send();
  });
}
