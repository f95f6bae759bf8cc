/**
 * The caseworkers' pages, at /ui: the plugin that serves them. It adds GOV.UK Frontend's files, the
 * guards every request passes (guards.ts), and each journey's pages (journeys/). Every read goes
 * through the typed client as the signed-in caseworker, so the API decides what they may see and
 * audits it; no page reads the store.
 */
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { addPageGuards } from './guards.ts';
import { auditReportPages } from './journeys/audit-report.ts';
import { closeMatchesPage } from './journeys/close-matches.ts';
import { type CredentialPagesOptions, credentialPages } from './journeys/credentials.ts';
import { walletOfferPages } from './journeys/wallet-offer.ts';
import { recordAccessesPage } from './journeys/record-accesses.ts';
import { recordPage } from './journeys/record.ts';
import { searchPages } from './journeys/search.ts';
import { signInPages } from './journeys/sign-in.ts';
import { startPage } from './journeys/start.ts';
import { subscriptionsPage } from './journeys/subscriptions.ts';
import { verifyPages } from './journeys/verify.ts';
import { type PagesOptions, createPages } from './pages.ts';
import { createTemplates, govukFrontendDist, templatesFolder } from './templates.ts';

export { AUDIT_ROLE, UI_CLIENT, type UiSignIn } from './pages.ts';
export { csvCell } from './journeys/audit-report.ts';

/** What the pages share, but their templates: the plugin makes those; `credentials` where the API issues them. */
type UiOptions = Omit<PagesOptions, 'templates'> & { readonly credentials?: CredentialPagesOptions };

export async function uiRoutes(app: FastifyInstance, options: UiOptions) {
  const templates = createTemplates();
  templates.addFilter('summaryRows', (rows: { label: string; value: string }[]) =>
    rows.map((row) => ({ key: { text: row.label }, value: { text: row.value } })),
  );

  await app.register(cookie);
  await app.register(formbody);
  // GOV.UK Frontend's stylesheet names its fonts and images under /assets.
  await app.register(fastifyStatic, {
    root: join(govukFrontendDist, 'govuk', 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    index: false,
  });
  await app.register(fastifyStatic, {
    root: join(govukFrontendDist, 'govuk'),
    prefix: '/ui/govuk/',
    decorateReply: false,
    index: false,
    allowedPath: (path) => /^\/govuk-frontend\.min\.(css|js)$/.test(path),
  });
  await app.register(fastifyStatic, {
    root: join(templatesFolder, '..', 'static'),
    prefix: '/ui/static/',
    decorateReply: false,
    index: false,
  });

  const { signIn } = options;
  await addPageGuards(app, {
    templates,
    mock: signIn.mode === 'mock',
    formTargets: signIn.mode === 'oidc' ? [signIn.oidc.origin] : [],
  });

  const pages = createPages({ ...options, templates });
  // Before the record page: its /ui/:type/:id/qr and /ui/credentials/check are more specific.
  if (options.credentials) credentialPages(app, pages, options.credentials);
  if (options.credentials) walletOfferPages(app, pages);
  signInPages(app, pages);
  startPage(app, pages);
  searchPages(app, pages);
  closeMatchesPage(app, pages);
  recordPage(app, pages);
  recordAccessesPage(app, pages);
  verifyPages(app, pages);
  auditReportPages(app, pages);
  subscriptionsPage(app, pages);
}
