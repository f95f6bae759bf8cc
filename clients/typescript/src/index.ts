export { createLevClient, RECORD_TYPES } from './client.ts';
export type {
  AuditEntries,
  AuditEntriesParams,
  AuditEntry,
  AuditReport,
  AuditReportParams,
  BirthV0,
  BirthV0SearchParams,
  CallOptions,
  EventsOptions,
  FeedEvent,
  LevClient,
  LevClientOptions,
  RecordOf,
  RecordType,
  Records,
  SearchParamsOf,
  SearchResults,
  SubscriptionState,
  OfferRequest,
  CredentialOffer,
  SuggestionOf,
  SuggestionParamsOf,
  SuggestionsOf,
  VerificationParamsOf,
} from './client.ts';
export { LevApiError } from './errors.ts';
export {
  type Auth,
  type ClientCredentialsOptions,
  type MockIdentity,
  bearerAuth,
  clientCredentials,
  mockAuth,
} from './auth.ts';
export { type RetryOptions, retryAfterMs } from './retry.ts';
export { type MutualTlsOptions, mutualTls } from './tls.ts';
export type { components, operations, paths } from './schema.ts';
export { type WebhookEvent, WebhookVerificationError, verifyWebhook } from './webhooks.ts';
export {
  CredentialVerificationError,
  NotACredentialError,
  type VerifiedCredential,
  type VerifyCredentialOptions,
  recordClaims,
  verifyCredential,
} from './credentials.ts';
export {
  type VerifiedWalletCredential,
  type VerifyWalletCredentialOptions,
  verifyJwtVc,
  verifyMdoc,
} from './wallet-formats.ts';
