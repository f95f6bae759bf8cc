/**
 * The watch on enumeration, shared by the routes a client could try names and dates through until
 * one is found: verifications (found: answered true) and close matches (found: the first candidate
 * at FOUND_PROBABILITY or more). Each answer is counted in the client's share of answers that found
 * nothing (false-share-monitor.ts), one share for both routes, so that a prober cannot halve it by
 * spreading its guesses over the two; past VERIFY_FALSE_SHARE_THRESHOLD a warn line is logged and
 * the alarm counted, naming the client and never what it asked.
 */
import type { FastifyInstance } from 'fastify';
import { Counter } from 'prom-client';
import type { VerificationConfig } from '../config/verification.ts';
import { FalseShareMonitor } from './false-share-monitor.ts';

/**
 * A close match's first candidate at this probability or more found the registration, as a verification's
 * true does.
 */
export const FOUND_PROBABILITY = 0.9;

export function watchEnumeration(app: FastifyInstance, settings: VerificationConfig['falseShare']): FalseShareMonitor {
  const registers = app.hasDecorator('metricsRegistry') ? [app.metricsRegistry] : [];
  const suspected = new Counter({
    name: 'lev_verification_false_share_alarms_total',
    help:
      "Times a client's share of verifications answered false and close matches finding none passed " +
      'VERIFY_FALSE_SHARE_THRESHOLD (an enumeration looks like that), by the dataset of the answer that ' +
      'passed it',
    labelNames: ['dataset'] as const,
    registers,
  });
  return new FalseShareMonitor(settings, ({ client, dataset, answers, falseShare }) => {
    suspected.inc({ dataset });
    // The client, never what it asked: the audit trail holds that, for those allowed to read it.
    app.log.warn(
      { client, dataset, answers, falseShare: Math.round(falseShare * 1000) / 1000, windowS: settings.windowMs / 1000 },
      "verification: most of a client's answers are false (an enumeration attempt?)",
    );
  });
}
