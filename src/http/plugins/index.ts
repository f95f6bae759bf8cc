/**
 * The named plugins of this folder, for the app that registers them (app.ts): those every request
 * passes through, in the order the app registers them, and those that each own one capability's
 * wiring.
 */
export { corsPlugin } from './cors.ts';
export { responseHeadersPlugin } from './response-headers.ts';
export { identityPlugin } from './identity.ts';
export { rateLimitPlugin } from './rate-limit.ts';
export { authorisationPlugin } from './authorisation.ts';
export { auditPlugin } from './audit.ts';
export { requestLogPlugin } from './request-log.ts';
export { malformedQueryPlugin } from './malformed-query.ts';
export { metricsPlugin } from './metrics.ts';
export { replicaMetricsPlugin } from './replica-metrics.ts';
export { recordReadsPlugin } from './record-reads.ts';
export { changeFeedPlugin } from './change-feed.ts';
export { feedRetentionPlugin } from './feed-retention.ts';
export { feedLagPlugin } from './feed-lag.ts';
export { credentialsPlugin } from './credentials.ts';
