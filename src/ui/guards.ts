/**
 * What every request to the pages passes through before a journey sees it: the Content-Security-Policy
 * and caching headers, an error page (never a bare 500), the refusal of a parameter given twice, and
 * the check of requests another site started (docs/ui.md, "Links and forms from another site").
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type nunjucks from 'nunjucks';
import { govukFrontendDist } from './templates.ts';

/** The hash of GOV.UK Frontend's one inline script (it marks the page as having JavaScript), for the CSP. */
async function inlineScriptHash(): Promise<string> {
  const template = await readFile(join(govukFrontendDist, 'govuk', 'template.njk'), 'utf8');
  const script = /<script[^>]*>([^<]*)<\/script>/.exec(template)?.[1];
  if (!script) throw new Error("GOV.UK Frontend's page template has no inline script to allow");
  return `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
}

/**
 * `formTargets`: origins besides this one a form may lead to (the issuer's sign-in and sign-out pages:
 * browsers check redirects too).
 */
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

/** What a refusal of the static files says, by its status; any other says the request could not be read. */
const REFUSALS: Record<number, string> = {
  403: 'The path leads out of the files served',
  416: 'The range asked for is not within the file',
};

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

interface GuardOptions {
  readonly templates: nunjucks.Environment;
  /** The mock's sign-in: every page says so. */
  readonly mock: boolean;
  /** Origins besides this one a form may lead to. */
  readonly formTargets: readonly string[];
}

/** Adds the guards to the pages' plugin; called before any journey's routes are added. */
export async function addPageGuards(app: FastifyInstance, { templates, mock, formTargets }: GuardOptions) {
  const csp = cspOf(await inlineScriptHash(), formTargets);

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('content-security-policy', csp);
    // Pages hold personal data; assets do not, and may be kept.
    if (request.url.startsWith('/ui/govuk/') || request.url.startsWith('/assets/'))
      reply.header('cache-control', 'public, max-age=86400');
    done(null, payload);
  });

  // A page that fails (the API or the session store out of reach) says so as a page: never a bare 500.
  app.setErrorHandler((error, request, reply) => {
    const err = { type: (error as Error).name, code: (error as { code?: string }).code };
    const status = (error as { statusCode?: number }).statusCode;
    // A request the pages cannot read (too large, a broken escape, a body of another type) or the
    // static files cannot answer (a path out of their folder, a range past a file's end) is the
    // client's doing, like the API's 4xx: logged as such, so that error level means the service
    // failed, and answered as the API answers one, {"code", "message"}.
    if (status && status >= 400 && status < 500) {
      request.log.info({ err, status }, 'page request refused');
      const code = (STATUS_CODES[status] ?? 'Bad Request').replace(/[^A-Za-z]/g, '');
      return reply
        .code(status)
        .type('application/json')
        .send({ code, message: REFUSALS[status] ?? 'The request could not be read' });
    }
    request.log.error({ err }, 'page failed');
    return reply
      .code(503)
      .type('text/html; charset=utf-8')
      .send(
        templates.render('error.njk', {
          mock,
          title: 'Sorry, there is a problem with the service',
          message: `Try again later. If you ask for help, quote reference ${request.id}.`,
        }),
      );
  });

  // The pages' forms send each field once: a parameter given twice is a link made by hand, refused
  // here rather than read as one value or the other.
  app.addHook('preHandler', async (request, reply) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query || !Object.values(query).some(Array.isArray)) return;
    return reply
      .code(400)
      .type('text/html; charset=utf-8')
      .send(
        templates.render('error.njk', {
          mock,
          title: 'There is a problem with the link',
          message: 'It gives a field more than once. Go back and try again.',
        }),
      );
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
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(templates.render(template, { mock, ...context }));
    // The link again, now followed from this origin. Only the path and query: never another host.
    if (safe) return render('confirm.njk', { title: 'Open this page?', target: request.url }, 200);
    // No session is read, made or set: the caseworker's stays as it was.
    return render(
      'error.njk',
      {
        title: 'You cannot do that from another website',
        message: 'The form was sent from another website. Go to the start and try again from there.',
      },
      403,
    );
  });
}
