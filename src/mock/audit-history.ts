/**
 * An invented audit history for the mock, so that a caseworker screen showing the audit report
 * has something to show on a fresh start: a few callers of several departments and groups,
 * looking up and searching the scenario records on working days of the four weeks before today.
 * Deterministic for a given day; the entries are chained like any others when written.
 */
import type { AuditEntry } from '../model/audit.ts';
import type { SearchableScenario } from './dataset.ts';

interface Caller {
  readonly username: string;
  readonly client: string;
  readonly groups: readonly string[];
  /** Accesses on a working day. */
  readonly perDay: number;
}

/** The callers of the history; docs/mock-data.md ("The audit history") lists them. */
export const HISTORY_CALLERS: readonly Caller[] = [
  { username: 'a.nwosu@hmpo.example.gov.uk', client: 'passport-checks', groups: ['hmpo-fraud'], perDay: 3 },
  {
    username: 'k.lindqvist@hmpo.example.gov.uk',
    client: 'passport-checks',
    groups: ['hmpo-fraud', 'hmpo-team-leaders'],
    perDay: 1,
  },
  { username: 'd.kowalczyk@hmrc.example.gov.uk', client: 'child-benefit', groups: ['hmrc-benefits'], perDay: 2 },
  { username: 'r.patel@dwp.example.gov.uk', client: 'tell-us-once', groups: ['dwp-bereavement'], perDay: 2 },
  { username: 'registrar.kestlewick@example.gov.uk', client: 'lev-web', groups: ['registration-officers'], perDay: 1 },
];

export const HISTORY_DAYS = 28;

export interface DatedEntry {
  /** ISO 8601, UTC. */
  readonly at: string;
  readonly entry: AuditEntry;
}

/** The history's entries for the four weeks before `today` (a Date), oldest first, over the records of `scenarios`. */
export function auditHistory(today: Date, scenarios: readonly SearchableScenario[]): DatedEntry[] {
  if (!scenarios.length) return [];
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const entries: DatedEntry[] = [];
  let turn = 0;
  for (let back = HISTORY_DAYS; back >= 1; back--) {
    const day = new Date(start - back * 86_400_000);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    HISTORY_CALLERS.forEach((caller, c) => {
      for (let n = 0; n < caller.perDay; n++, turn++) {
        // Spread over the working day, callers apart; the same scenario list walked in turn.
        const at = new Date(day.getTime() + (9 * 60 + c * 47 + n * 83) * 60_000 + (turn % 60) * 1000);
        const scenario = scenarios[(turn * 7) % scenarios.length];
        const lookup = turn % 3 === 0;
        const path = `/v1/registration/${scenario.type}${lookup ? `/${scenario.id}` : ''}`;
        entries.push({
          at: at.toISOString(),
          entry: {
            username: caller.username,
            client: caller.client,
            groups: caller.groups,
            dataset: scenario.type,
            operation: lookup ? 'lookup' : 'search',
            path,
            query: lookup ? '' : new URLSearchParams(scenario.search).toString(),
            results: 1,
            requestId: `mock-history-${String(turn).padStart(4, '0')}`,
          },
        });
      }
    });
  }
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
