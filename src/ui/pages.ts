/**
 * What every journey's pages share: the caseworker's session (who is signed in, and their client of
 * the API), rendering a page with the layout's context, and the API's refusals told as pages.
 */
import { type Auth, type LevClient, LevApiError, type RecordType, bearerAuth, mockAuth } from '@lev-api/client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type nunjucks from 'nunjucks';
import type { RecordDescription } from '../records/define.ts';
import { isSystemNumber } from '../records/system-number.ts';
import { capitalised, pluralOf } from '../records/wording.ts';
import { AUDIT_ROLE } from '../model/identity.ts';
import { type FieldErrors, type FormField, errorList } from './forms.ts';
import type { OidcSignIn } from './oidc-sign-in.ts';
import { type Session, type SessionStore, newSessionId, newToken } from './sessions.ts';

export { AUDIT_ROLE };
const COOKIE = 'lev_ui_session';
/** The name the pages call the API as, in the mock's identity headers. */
export const UI_CLIENT = 'lev-ui';

/**
 * How caseworkers sign in: the mock lets anyone choose who they are (the API, in mock mode, believes
 * the identity headers the pages send); OIDC signs them in at the issuer, and the pages call the
 * API with their access token.
 */
export type UiSignIn = { readonly mode: 'mock' } | { readonly mode: 'oidc'; readonly oidc: OidcSignIn };

/** An access token this close to expiry is renewed before it is used. */
const RENEW_BEFORE_MS = 30_000;

export interface PagesOptions {
  /** The API, as no one yet: each page calls it `withAuth` the caseworker's identity. */
  readonly api: Pick<LevClient, 'withAuth'>;
  readonly sessions: SessionStore;
  readonly idleMs: number;
  /** Cookies marked Secure: the pages are served over TLS. */
  readonly secure: boolean;
  readonly records: readonly RecordDescription[];
  readonly signIn: UiSignIn;
  readonly templates: nunjucks.Environment;
  /** Set where the API issues digital certificates: the pages then offer them. */
  readonly credentials?: object;
}

/** A signed-in caseworker's request: their session and their client of the API. */
interface SignedIn {
  readonly id: string;
  readonly session: Session;
  readonly lev: LevClient;
}

export type Pages = ReturnType<typeof createPages>;

export function createPages({ api, sessions, idleMs, secure, records, signIn, templates, credentials }: PagesOptions) {
  const mock = signIn.mode === 'mock';
  const types = new Map(records.map((d) => [d.name, d]));
  const cookieOptions = { path: '/ui', httpOnly: true, sameSite: 'lax' as const, secure };

  /** The visitor's session as it is, without making one or restarting its idle time. */
  const heldSession = async (request: FastifyRequest) => {
    const id = request.cookies[COOKIE];
    const session = id ? await sessions.get(id) : undefined;
    return id && session ? { id, session } : undefined;
  };

  /** The visitor's session, made (not yet signed in) when they have none or it ended. */
  const sessionOf = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = request.cookies[COOKIE];
    const held = id ? await sessions.get(id) : undefined;
    if (id && held) {
      // Each request restarts the idle time.
      await sessions.set(id, held);
      return { id, session: held, ended: false };
    }
    const fresh = { id: newSessionId(), session: { csrf: newToken() } as Session };
    await sessions.set(fresh.id, fresh.session);
    reply.setCookie(COOKIE, fresh.id, cookieOptions);
    return { ...fresh, ended: Boolean(id) };
  };

  /** A new session id for the signed-in caseworker: one fixed before sign-in is worth nothing after. */
  const startSession = async (reply: FastifyReply, previous: string, session: Session) => {
    await sessions.delete(previous);
    const next = newSessionId();
    await sessions.set(next, session);
    reply.setCookie(COOKIE, next, cookieOptions);
    return reply.redirect('/ui', 303);
  };

  /** Ends the session here and takes the cookie back. */
  const endSession = async (reply: FastifyReply, id: string) => {
    await sessions.delete(id);
    reply.clearCookie(COOKIE, cookieOptions);
  };

  const page = (reply: FastifyReply, template: string, context: Record<string, unknown>, status = 200) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(templates.render(template, { mock, ...context }));

  /** The common context of a signed-in page. */
  const context = (session: Session, title: string, extra: Record<string, unknown> = {}) => ({
    title,
    user: session.user,
    csrf: session.csrf,
    idleSeconds: Math.round(idleMs / 1000),
    credentials: Boolean(credentials),
    warnSeconds: Math.min(120, Math.round(idleMs / 4000)),
    navigation: [
      { href: '/ui', text: 'Start' },
      ...(session.user?.roles.includes(AUDIT_ROLE) ? [{ href: '/ui/audit', text: 'Audit report' }] : []),
    ],
    ...extra,
  });

  /** How the caseworker's calls to the API say who they are; undefined when their sign-in has run out. */
  const authOf = async (id: string, session: Session): Promise<Auth | undefined> => {
    const { username, roles } = session.user!;
    if (signIn.mode === 'mock') return mockAuth({ username, client: UI_CLIENT, roles: [...roles] });
    let tokens = session.tokens;
    if (!tokens) return undefined;
    if (tokens.expiresAt - Date.now() < RENEW_BEFORE_MS) {
      tokens = await signIn.oidc.refresh(tokens);
      if (!tokens) return undefined;
      await sessions.set(id, { ...session, tokens });
    }
    const access = tokens.access;
    return bearerAuth(() => access);
  };

  /** The signed-in caseworker's session and their client, or a redirect to sign-in. */
  const signedIn = async (request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | undefined> => {
    const { id, session, ended } = await sessionOf(request, reply);
    if (!session.user) {
      reply.redirect(ended ? '/ui/sign-in?timedOut=1' : '/ui/sign-in', 303);
      return undefined;
    }
    const auth = await authOf(id, session);
    if (!auth) {
      await endSession(reply, id);
      reply.redirect('/ui/sign-in?expired=1', 303);
      return undefined;
    }
    return { id, session, lev: api.withAuth(auth) };
  };

  /**
   * The registration a page's address names (/ui/:type/:id...), for the caseworker signed in; undefined
   * when the page has answered already: not found (no such type, not a system number) or sent to sign in.
   */
  const registrationOf = async (
    request: FastifyRequest<{ Params: { type: string; id: string } }>,
    reply: FastifyReply,
  ) => {
    const description = types.get(request.params.type);
    if (!description || !isSystemNumber(request.params.id)) {
      reply.callNotFound();
      return undefined;
    }
    const signed = await signedIn(request, reply);
    return signed && { signed, description, type: description.name as RecordType, id: request.params.id };
  };

  /** What an API refusal tells the caseworker. */
  const refused = (reply: FastifyReply, session: Session, error: unknown) => {
    if (!(error instanceof LevApiError)) throw error;
    const [title, message] =
      error.status === 403
        ? ['You cannot do that', 'Your roles do not allow it. Ask your manager if you need to.']
        : error.status === 429
          ? ['Too many requests', 'You have made many requests in a short time. Wait a minute, then try again.']
          : [
              'Sorry, there is a problem with the service',
              `Try again later. If you ask for help, quote reference ${error.requestId ?? 'unknown'}.`,
            ];
    return page(
      reply,
      'error.njk',
      context(session, title, { message }),
      error.status === 403 ? 403 : error.status === 429 ? 429 : 503,
    );
  };

  const formErrors = (fields: readonly FormField[], errors: FieldErrors) => ({
    errors: errorList(fields, errors),
    fieldErrors: errors,
  });

  return {
    mock,
    records,
    signIn,
    sessions,
    /** The description of a record type named in a page's address; undefined for any other name. */
    typeOf: (name: string) => types.get(name),
    /** A record type as its description names it in a sentence: "civil partnership"; any other dataset by its name. */
    nounOf: (type: string) => types.get(type)?.noun ?? type,
    /** A record type as a heading: "Civil partnerships". */
    labelOf: (type: string) => {
      const description = types.get(type);
      return description ? capitalised(pluralOf(description)) : type;
    },
    heldSession,
    sessionOf,
    startSession,
    endSession,
    signedIn,
    registrationOf,
    page,
    context,
    refused,
    formErrors,
  };
}
