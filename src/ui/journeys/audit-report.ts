/**
 * The audit report, for the audit role: accesses per user per day over a date range, the same as
 * CSV, and a row's drill-down (one user's accesses of one day).
 */
import { LevApiError, type LevClient } from '@lev-api/client';
import type { FastifyInstance } from 'fastify';
import { ENTRIES_SHOWN, entryRows } from '../audit-entries.ts';
import { longDate } from '../dates.ts';
import { type FormField, type Values, readForm } from '../forms.ts';
import type { Pages } from '../pages.ts';

const auditFields: FormField[] = [
  { name: 'from', label: 'From', kind: 'date', required: false },
  { name: 'to', label: 'To', kind: 'date', required: false },
];
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** The report's days from the form (the last 30 days when none are given), and its rows. */
async function auditRows(lev: LevClient, values: Values) {
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
}

/** The report form's fields for a range, as the form sends them. */
function rangeValues(from: string, to: string) {
  const [fy, fm, fd] = from.split('-');
  const [ty, tm, td] = to.split('-');
  return { 'from-day': fd, 'from-month': fm, 'from-year': fy, 'to-day': td, 'to-month': tm, 'to-year': ty };
}

export function auditReportPages(
  app: FastifyInstance,
  { signedIn, page, context, refused, formErrors, nounOf }: Pages,
) {
  app.get<{ Querystring: Values }>('/ui/audit', async (request, reply) => {
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    try {
      const { errors, from, to, rows } = await auditRows(signed.lev, request.query);
      const values = { ...rangeValues(from, to), ...request.query };
      const csvQuery = new URLSearchParams(
        Object.entries(values).filter(([, v]) => v !== undefined) as [string, string][],
      ).toString();
      return page(
        reply,
        'audit.njk',
        context(signed.session, 'Audit report', {
          formFields: auditFields,
          values,
          from,
          to,
          rows,
          csvQuery,
          ...formErrors(auditFields, errors),
        }),
        Object.keys(errors).length ? 400 : 200,
      );
    } catch (error) {
      return refused(reply, signed.session, error);
    }
  });

  // A row of the report: one user's accesses on one day. `from` and `to` are the report's range, for the way
  // back to it.
  app.get<{ Querystring: Values }>('/ui/audit/entries', async (request, reply) => {
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    const { user, day, from, to } = request.query;
    const isDay = (text: string | undefined): text is string => /^\d{4}-\d\d-\d\d$/.test(text ?? '');
    const badLink = () =>
      page(
        reply,
        'error.njk',
        context(signed.session, 'There is a problem with the link', {
          message: 'Go back to the audit report and choose a row.',
        }),
        400,
      );
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
