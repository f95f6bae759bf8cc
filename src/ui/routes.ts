/**
 * The caseworkers' pages, at /ui: sign-in, search, the record, the certificate check and the audit
 * report. Every read goes through the typed client as the signed-in caseworker, so the API decides
 * what they may see and audits it; no page reads the store.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { type Auth, type LevClient, LevApiError, type RecordType, bearerAuth, mockAuth } from '@lev-api/client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RecordDescription } from '../records/define.ts';
import { readPath } from '../records/define.ts';
import { FULL_DETAILS_ROLE, SUGGEST_ROLE } from '../types/identity.ts';
import { candidateViews, longDate as longIsoDate } from './close-matches.ts';
import { ENTRIES_SHOWN, accessRows, entryRows, longDate } from './audit-entries.ts';
import { type FieldErrors, type FormField, type Values, errorList, parameterNamed, readForm, searchFields, verificationFields } from './forms.ts';
import { type OidcSignIn, SignInError } from './oidc-sign-in.ts';
import { recordPage } from './record-page.ts';
import { type Session, type SessionStore, newSessionId, newToken } from './sessions.ts';
import { createTemplates, govukFrontendDist, templatesFolder } from './templates.ts';
import { isSystemNumber } from '../records/system-number.ts';

export const AUDIT_ROLE = 'audit';
const COOKIE = 'lev_ui_session';
/** The name the pages call the API as, in the mock's identity headers. */
export const UI_CLIENT = 'lev-ui';

export interface UiOptions {
  /** The API, as no one yet: each page calls it `withAuth` the caseworker's identity. */
  readonly api: LevClient;
  readonly sessions: SessionStore;
  readonly idleMs: number;
  /** Cookies marked Secure: the pages are served over TLS. */
  readonly secure: boolean;
  readonly records: readonly RecordDescription[];
  readonly signIn: UiSignIn;
}

/**
 * How caseworkers sign in: the mock lets anyone choose who they are (the API, in mock mode, believes
 * the identity headers the pages send); OIDC signs them in at the issuer, and the pages call the
 * API with their access token.
 */
export type UiSignIn = { readonly mode: 'mock' } | { readonly mode: 'oidc'; readonly oidc: OidcSignIn };

/** An access token this close to expiry is renewed before it is used. */
const RENEW_BEFORE_MS = 30_000;

declare module 'fastify' {
  interface FastifyRequest {
    uiSession?: { id: string; session: Session };
  }
}

/** The hash of GOV.UK Frontend's one inline script (it marks the page as having JavaScript), for the CSP. */
async function inlineScriptHash(): Promise<string> {
  const template = await readFile(join(govukFrontendDist, 'govuk', 'template.njk'), 'utf8');
  const script = /<script[^>]*>([^<]*)<\/script>/.exec(template)?.[1];
  if (!script) throw new Error("GOV.UK Frontend's page template has no inline script to allow");
  return `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
}

/** `formTargets`: origins besides this one a form may lead to (the issuer's sign-in and sign-out pages: browsers check redirects too). */
const cspOf = (scriptHash: string, formTargets: readonly string[]) =>
  [
    "default-src 'none'",
    `script-src 'self' ${scriptHash}`,
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    ["form-action 'self'", ...formTargets].join(' '),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

const nouns: Record<string, string> = { birth: 'birth', death: 'death', marriage: 'marriage', partnership: 'civil partnership' };
const labels: Record<string, string> = { birth: 'Births', death: 'Deaths', marriage: 'Marriages', partnership: 'Civil partnerships' };
const nounOf = (type: string) => nouns[type] ?? type;

/** Pages another site may link to: where a caseworker starts, signs in, and returns to from the issuer. */
const OPEN_TO_OTHER_SITES = new Set(['/ui', '/ui/sign-in', '/ui/auth/callback']);

/**
 * Whether the browser says another site started the request (Fetch Metadata). `same-site` counts as
 * another site: a sibling subdomain is not these pages. Without the header (a client that is not a
 * browser, or one too old to send it) nothing can be told, and the request is read as before.
 */
const startedElsewhere = (request: FastifyRequest) => {
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
};

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function uiRoutes(app: FastifyInstance, options: UiOptions) {
  const { api, sessions, idleMs, secure, records, signIn } = options;
  const mock = signIn.mode === 'mock';
  const templates = createTemplates();
  templates.addFilter('summaryRows', (rows: { label: string; value: string }[]) => rows.map((row) => ({ key: { text: row.label }, value: { text: row.value } })));
  const csp = cspOf(await inlineScriptHash(), signIn.mode === 'oidc' ? [signIn.oidc.origin] : []);
  const types = new Map(records.map((d) => [d.name, d]));
  const roleNames = [...records.flatMap((d) => [d.name, `${d.name}-verify`]), FULL_DETAILS_ROLE, SUGGEST_ROLE, AUDIT_ROLE];

  await app.register(cookie);
  await app.register(formbody);
  // GOV.UK Frontend's stylesheet names its fonts and images under /assets.
  await app.register(fastifyStatic, { root: join(govukFrontendDist, 'govuk', 'assets'), prefix: '/assets/', decorateReply: false, index: false });
  await app.register(fastifyStatic, {
    root: join(govukFrontendDist, 'govuk'),
    prefix: '/ui/govuk/',
    decorateReply: false,
    index: false,
    allowedPath: (path) => /^\/govuk-frontend\.min\.(css|js)$/.test(path),
  });
  await app.register(fastifyStatic, { root: join(templatesFolder, '..', 'static'), prefix: '/ui/static/', decorateReply: false, index: false });

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('content-security-policy', csp);
    // Pages hold personal data; assets do not, and may be kept.
    if (request.url.startsWith('/ui/govuk/') || request.url.startsWith('/assets/')) reply.header('cache-control', 'public, max-age=86400');
    done(null, payload);
  });

  const cookieOptions = { path: '/ui', httpOnly: true, sameSite: 'lax' as const, secure };

  // A page that fails (the API or the session store out of reach) says so as a page: never a bare 500.
  app.setErrorHandler((error, request, reply) => {
    const err = { type: (error as Error).name, code: (error as { code?: string }).code };
    const status = (error as { statusCode?: number }).statusCode;
    // A request the pages cannot read (too large, a broken escape, a body of another type) is the
    // client's doing, like the API's 4xx: logged as such, so that error level means the service failed.
    if (status && status >= 400 && status < 500) {
      request.log.info({ err, status }, 'page request refused');
      return reply.code(status).type('text/plain; charset=utf-8').send('The request could not be read');
    }
    request.log.error({ err }, 'page failed');
    return reply
      .code(503)
      .type('text/html; charset=utf-8')
      .send(templates.render('error.njk', { mock, title: 'Sorry, there is a problem with the service', message: `Try again later. If you ask for help, quote reference ${request.id}.` }));
  });

  // The pages' forms send each field once: a parameter given twice is a link made by hand, refused
  // here rather than read as one value or the other.
  app.addHook('preHandler', async (request, reply) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query || !Object.values(query).some(Array.isArray)) return;
    return reply
      .code(400)
      .type('text/html; charset=utf-8')
      .send(templates.render('error.njk', { mock, title: 'There is a problem with the link', message: 'It gives a field more than once. Go back and try again.' }));
  });

  // A request another site started (a link, a form on its page, a redirect through it) carries the
  // caseworker's cookie, SameSite=Lax, when it is a top-level GET. Such a request reads nothing and
  // changes nothing until the caseworker confirms from the pages themselves; docs/ui.md says why
  // this rather than SameSite=Strict. Only the pages a caseworker starts from, signs in at, or comes
  // back to from the issuer may be opened from elsewhere.
  app.addHook('onRequest', async (request, reply) => {
    if (!startedElsewhere(request)) return;
    const route = request.routeOptions.url;
    const safe = request.method === 'GET' || request.method === 'HEAD';
    if (route === undefined || (safe && OPEN_TO_OTHER_SITES.has(route))) return;
    const render = (template: string, context: Record<string, unknown>, status: number) =>
      reply.code(status).type('text/html; charset=utf-8').send(templates.render(template, { mock, ...context }));
    // The link again, now followed from this origin. Only the path and query: never another host.
    if (safe) return render('confirm.njk', { title: 'Open this page?', target: request.url }, 200);
    // No session is read, made or set: the caseworker's stays as it was.
    return render('error.njk', { title: 'You cannot do that from another website', message: 'The form was sent from another website. Go to the start and try again from there.' }, 403);
  });

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

  const page = (reply: FastifyReply, template: string, context: Record<string, unknown>, status = 200) =>
    reply.code(status).type('text/html; charset=utf-8').send(templates.render(template, { mock, ...context }));

  /** The common context of a signed-in page. */
  const context = (session: Session, title: string, extra: Record<string, unknown> = {}) => ({
    title,
    user: session.user,
    csrf: session.csrf,
    idleSeconds: Math.round(idleMs / 1000),
    warnSeconds: Math.min(120, Math.round(idleMs / 4000)),
    navigation: [
      { href: '/ui', text: 'Start' },
      ...(session.user?.roles.includes(AUDIT_ROLE) ? [{ href: '/ui/audit', text: 'Audit report' }] : []),
    ],
    ...extra,
  });

  /** The signed-in caseworker's session and their client, or a redirect to sign-in. */
  const signedIn = async (request: FastifyRequest, reply: FastifyReply) => {
    const { id, session, ended } = await sessionOf(request, reply);
    if (!session.user) {
      reply.redirect(ended ? '/ui/sign-in?timedOut=1' : '/ui/sign-in', 303);
      return undefined;
    }
    const auth = await authOf(id, session);
    if (!auth) {
      await sessions.delete(id);
      reply.clearCookie(COOKIE, cookieOptions);
      reply.redirect('/ui/sign-in?expired=1', 303);
      return undefined;
    }
    return { id, session, lev: api.withAuth(auth) };
  };

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

  const typeOf = (name: string) => types.get(name);

  /** What an API refusal tells the caseworker. */
  const refused = (reply: FastifyReply, session: Session, error: unknown) => {
    if (!(error instanceof LevApiError)) throw error;
    const [title, message] =
      error.status === 403
        ? ['You cannot do that', 'Your roles do not allow it. Ask your manager if you need to.']
        : error.status === 429
          ? ['Too many requests', 'You have made many requests in a short time. Wait a minute, then try again.']
          : ['Sorry, there is a problem with the service', `Try again later. If you ask for help, quote reference ${error.requestId ?? 'unknown'}.`];
    return page(reply, 'error.njk', context(session, title, { message }), error.status === 403 ? 403 : error.status === 429 ? 429 : 503);
  };

  const formErrors = (fields: readonly FormField[], errors: FieldErrors) => ({ errors: errorList(fields, errors), fieldErrors: errors });

  // ---- sign-in and sign-out (the forms that change state: CSRF-checked)

  const roleItems = (chosen: readonly string[] = []) => roleNames.map((role) => ({ value: role, text: role, checked: chosen.includes(role) }));
  const noticeOf = (query: { timedOut?: string; expired?: string }) =>
    query.timedOut
      ? 'You were signed out because you had not done anything for a while.'
      : query.expired
        ? 'Your sign-in has expired. Sign in again to go on.'
        : undefined;
  const csrfHolds = (given: unknown, session: Session) => typeof given === 'string' && sameText(given, session.csrf);
  const expired = (reply: FastifyReply, session: Session | undefined, what: string) =>
    page(reply, 'error.njk', context(session ?? { csrf: '' }, `${what} again`, { message: `The form had expired. Go back and ${what.toLowerCase()} again.` }), 403);

  /** A new session id for the signed-in caseworker: one fixed before sign-in is worth nothing after. */
  const startSession = async (reply: FastifyReply, previous: string, session: Session) => {
    await sessions.delete(previous);
    const next = newSessionId();
    await sessions.set(next, session);
    reply.setCookie(COOKIE, next, cookieOptions);
    return reply.redirect('/ui', 303);
  };

  app.get<{ Querystring: { timedOut?: string; expired?: string } }>('/ui/sign-in', async (request, reply) => {
    const { session } = await sessionOf(request, reply);
    const notice = noticeOf(request.query);
    if (signIn.mode === 'oidc') return page(reply, 'sign-in-oidc.njk', { ...context(session, 'Sign in'), user: undefined, notice });
    return page(reply, 'sign-in.njk', { ...context(session, 'Sign in'), user: undefined, notice, values: {}, fieldErrors: {}, roleItems: roleItems() });
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
      return page(reply, 'sign-in.njk', { ...context(session, 'Sign in'), user: undefined, values: { username }, fieldErrors, errors, roleItems: roleItems(chosen) }, 400);
    }
    return startSession(reply, id, { user: { username, roles: chosen }, csrf: newToken() });
  });

  // Where the issuer sends the caseworker back, with the code (or its refusal) and the state.
  app.get('/ui/auth/callback', async (request, reply) => {
    if (signIn.mode !== 'oidc') return reply.callNotFound();
    const { id, session } = await sessionOf(request, reply);
    const failed = (message: string) => page(reply, 'error.njk', { ...context(session, 'You could not be signed in', { message }), user: undefined, retry: true }, 400);
    if (!session.pending) return failed('The sign-in had expired, or was started in another browser. Sign in again.');
    try {
      const { user, tokens } = await signIn.oidc.finish(new URL(request.url, 'http://pages.invalid').searchParams, session.pending);
      return await startSession(reply, id, { user, tokens, csrf: newToken() });
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      // The code, never the answer: it may hold personal data.
      request.log.warn({ code: error.code }, 'sign-in did not complete');
      await sessions.set(id, { csrf: session.csrf });
      return failed(error.code === 'access_denied' ? 'The sign-in was cancelled. Sign in again to go on.' : 'The sign-in could not be completed. Sign in again.');
    }
  });

  app.post<{ Body: Record<string, string | undefined> }>('/ui/sign-out', async (request, reply) => {
    const held = await heldSession(request);
    if (!held || !csrfHolds(request.body?.csrf, held.session)) return expired(reply, held?.session, 'Sign out');
    const { id, session } = held;
    await sessions.delete(id);
    reply.clearCookie(COOKIE, cookieOptions);
    // At the issuer too, or its session would sign the caseworker straight back in.
    const issuerSignOut = signIn.mode === 'oidc' && session.tokens ? await signIn.oidc.signOutUrl(session.tokens) : undefined;
    return reply.redirect(issuerSignOut ?? '/ui/sign-in', 303);
  });

  app.get('/ui/keep-alive', async (request, reply) => {
    const { session } = await sessionOf(request, reply);
    return reply.code(session.user ? 204 : 401).send();
  });

  // ---- the start page

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
          label: labels[d.name] ?? d.name,
          noun: nounOf(d.name),
          canRead: roles.includes(d.name),
          canVerify: roles.includes(d.name) || roles.includes(`${d.name}-verify`),
        })),
        canAudit: roles.includes(AUDIT_ROLE),
      }),
    );
  });

  // ---- search, results and the record

  app.get<{ Params: { type: string }; Querystring: Values }>('/ui/:type/search', async (request, reply) => {
    const description = typeOf(request.params.type);
    if (!description) return reply.callNotFound();
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const type = description.name as RecordType;
    const { byNumber, byNames } = searchFields(description);
    const values = request.query;
    const form = (fieldErrors: FieldErrors, status = 200) =>
      page(reply, 'search.njk', context(signed.session, `Find a ${nounOf(type)} registration`, { type, noun: nounOf(type), byNumber, byNames, values, ...formErrors([...byNumber, ...byNames], fieldErrors) }), status);
    if (!values.submitted) return form({});

    const number = readForm(byNumber, values);
    if (Object.keys(number.errors).length) return form(number.errors, 400);
    try {
      if (number.params.systemNumber) return reply.redirect(`/ui/${type}/${Number(number.params.systemNumber)}`, 303);
      const names = readForm(byNames, values);
      if (Object.keys(names.errors).length) return form(names.errors, 400);
      const found = await signed.lev.search(type, names.params as never);
      if (found.records.length === 1 && !found.truncated) return reply.redirect(`/ui/${type}/${(found.records[0] as { id: number }).id}`, 303);
      const parties = description.search.parties;
      // Nothing found by names and date: the same details, searched for close matches, where the roles allow.
      const { roles } = signed.session.user!;
      const closeMatches =
        found.records.length === 0 && roles.includes(SUGGEST_ROLE)
          ? `/ui/${type}/close-matches?${new URLSearchParams(Object.entries(values).filter((entry): entry is [string, string] => entry[0] !== 'systemNumber' && entry[1] !== undefined))}`
          : undefined;
      return page(
        reply,
        'results.njk',
        context(signed.session, `${labels[type] ?? type} found`, {
          type,
          noun: nounOf(type),
          truncated: found.truncated,
          closeMatches,
          headings: ['System number', ...parties.map((_, i) => (parties.length > 1 ? `Party ${i + 1}` : 'Name')), 'Date'],
          rows: found.records.map((record) => ({
            id: (record as { id: number }).id,
            cells: [
              ...parties.map((party) => [readPath(record, party.forenames), readPath(record, party.surname)].filter(Boolean).join(' ')),
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
          given: byNames.map((field) => ({ key: { text: field.label }, value: { text: field.kind === 'date' ? longIsoDate(names.params[field.name]) : names.params[field.name] } })),
          headings: ['System number', ...parties.map((_, i) => (parties.length > 1 ? `Party ${i + 1}` : 'Name')), 'Date', 'How close', 'Why it matched'],
          candidates: candidateViews(description, names.params, answer.candidates),
          truncated: answer.truncated,
          searchAgain: `/ui/${type}/search?${new URLSearchParams(Object.entries(request.query).filter((entry): entry is [string, string] => entry[0] !== 'submitted' && entry[1] !== undefined))}`,
        }),
      );
    } catch (error) {
      return refused(reply, signed.session, error);
    }
  });

  app.get<{ Params: { type: string; id: string } }>('/ui/:type/:id', async (request, reply) => {
    const description = typeOf(request.params.type);
    if (!description || !isSystemNumber(request.params.id)) return reply.callNotFound();
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const type = description.name as RecordType;
    try {
      const record = await signed.lev.lookup(type, request.params.id);
      const canAudit = signed.session.user!.roles.includes(AUDIT_ROLE);
      return page(reply, 'record.njk', context(signed.session, `${nounOf(type)[0].toUpperCase()}${nounOf(type).slice(1)} record`, { type, noun: nounOf(type), page: recordPage(description, record), canAudit }));
    } catch (error) {
      if (error instanceof LevApiError && error.status === 404) {
        return page(reply, 'error.njk', context(signed.session, 'No such registration', { message: `No ${nounOf(type)} registration has that system number.` }), 404);
      }
      return refused(reply, signed.session, error);
    }
  });

  // Who has seen a registration, for the audit role: every access that disclosed or decided on it.
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
        context(signed.session, `Who has seen ${nounOf(type)} registration ${id}`, { type, id, noun: nounOf(type), rows: accessRows(entries), truncated, shown: ENTRIES_SHOWN }),
      );
    } catch (error) {
      return refused(reply, signed.session, error);
    }
  });

  // ---- the certificate check

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
      page(reply, 'verify.njk', context(signed.session, title, { type, noun: nounOf(type), formFields, values, ...formErrors(formFields, fieldErrors) }), status);
    if (!values.submitted) return form({});
    const { params, errors } = readForm(formFields, values);
    if (Object.keys(errors).length) return form(errors, 400);
    try {
      const verified = await signed.lev.verify(type, params as never);
      return page(reply, 'verify.njk', context(signed.session, verified ? 'The details match' : 'The details do not match', { type, noun: nounOf(type), answered: true, verified }));
    } catch (error) {
      if (error instanceof LevApiError && error.status === 400) {
        const field = formFields.find((f) => f.name === parameterNamed(error.message)) ?? formFields[0];
        return form({ [field.name]: error.message.replace(/^[^:]*: ?/, 'Check this: ') }, 400);
      }
      return refused(reply, signed.session, error);
    }
  });

  // ---- the audit report

  const auditFields: FormField[] = [
    { name: 'from', label: 'From', kind: 'date', required: false },
    { name: 'to', label: 'To', kind: 'date', required: false },
  ];
  const today = () => new Date().toISOString().slice(0, 10);
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

  /** The report's days from the form (the last 30 days when none are given), and its rows. */
  const auditRows = async (lev: LevClient, values: Values) => {
    const { params, errors } = readForm(auditFields, values);
    const from = params.from ?? daysAgo(30);
    const to = params.to ?? today();
    if (!Object.keys(errors).length && from > to) errors.to = 'The to date must be the same as or after the from date';
    if (Object.keys(errors).length) return { errors, from, to };
    const report = await lev.auditReport({ from, to });
    const rows = Object.entries(report)
      .flatMap(([user, days]) => Object.entries(days).map(([day, count]) => ({ user, day, count })))
      .sort((a, b) => a.day.localeCompare(b.day) || a.user.localeCompare(b.user));
    return { errors, from, to, rows };
  };

  /** The report form's fields for a range, as the form sends them. */
  const rangeValues = (from: string, to: string) => {
    const [fy, fm, fd] = from.split('-');
    const [ty, tm, td] = to.split('-');
    return { 'from-day': fd, 'from-month': fm, 'from-year': fy, 'to-day': td, 'to-month': tm, 'to-year': ty };
  };

  app.get<{ Querystring: Values }>('/ui/audit', async (request, reply) => {
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    try {
      const { errors, from, to, rows } = await auditRows(signed.lev, request.query);
      const values = { ...rangeValues(from, to), ...request.query };
      const csvQuery = new URLSearchParams(Object.entries(values).filter(([, v]) => v !== undefined) as [string, string][]).toString();
      return page(reply, 'audit.njk', context(signed.session, 'Audit report', { formFields: auditFields, values, from, to, rows, csvQuery, ...formErrors(auditFields, errors) }), Object.keys(errors).length ? 400 : 200);
    } catch (error) {
      return refused(reply, signed.session, error);
    }
  });

  // A row of the report: one user's accesses on one day. `from` and `to` are the report's range, for the way back to it.
  app.get<{ Querystring: Values }>('/ui/audit/entries', async (request, reply) => {
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const { user, day, from, to } = request.query;
    const isDay = (text: string | undefined): text is string => /^\d{4}-\d\d-\d\d$/.test(text ?? '');
    const badLink = () =>
      page(reply, 'error.njk', context(signed.session, 'There is a problem with the link', { message: 'Go back to the audit report and choose a row.' }), 400);
    if (!user || !isDay(day)) return badLink();
    try {
      const { entries, truncated } = await signed.lev.auditEntries({ user, from: day, to: day, limit: ENTRIES_SHOWN });
      return page(
        reply,
        'audit-entries.njk',
        // The title names the day only: a username is personal data, and titles end up in browser history.
        context(signed.session, `Accesses on ${longDate(day)}`, {
          // Not `user`: that is the signed-in caseworker, whom the layout names.
          caller: user,
          rows: entryRows(entries, nounOf),
          truncated,
          shown: ENTRIES_SHOWN,
          back: isDay(from) && isDay(to) ? `/ui/audit?${new URLSearchParams(rangeValues(from, to))}` : '/ui/audit',
        }),
      );
    } catch (error) {
      // The API checks the day is a real one (2026-02-30 is not).
      if (error instanceof LevApiError && error.status === 400) return badLink();
      return refused(reply, signed.session, error);
    }
  });

  app.get<{ Querystring: Values }>('/ui/audit.csv', async (request, reply) => {
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    try {
      const { errors, from, to, rows } = await auditRows(signed.lev, request.query);
      if (Object.keys(errors).length || !rows) return reply.redirect('/ui/audit', 303);
      const lines = ['user,day,accesses', ...rows.map((row) => [csvCell(row.user), row.day, row.count].join(','))];
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${from}-to-${to}.csv"`)
        .send(`${lines.join('\r\n')}\r\n`);
    } catch (error) {
      return refused(reply, signed.session, error);
    }
  });
}

/**
 * A CSV cell: quoted when it must be, and never read by a spreadsheet as a formula. The characters
 * are OWASP's (CSV injection), with `;` and `|`, which some spreadsheets also start a formula or a
 * DDE call with; `;` is quoted too, being the separator where the decimal mark is a comma.
 * @see https://owasp.org/www-community/attacks/CSV_Injection
 */
export function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r;|]/.test(text) ? `'${text}` : text;
  return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
