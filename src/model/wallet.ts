/**
 * What the OpenID4VCI pick-up keeps between a department's offer and the wallet's credential
 * (docs/wallets.md): each offer, whether its pre-authorised code was exchanged and its credential
 * issued (each once), the failed transaction-code guesses that kill it, the nonces the nonce
 * endpoint handed out, and the wallet's notifications about what it did with the credential.
 * One interface; a memory backend and a PostgreSQL backend, held to one contract
 * (test/store/wallet-store.test.ts).
 */

/** Who asked for the offer: the pick-up renders and audits the record as that caller would see it. */
export interface OfferedBy {
  readonly username: string;
  readonly client: string;
  readonly groups: readonly string[];
  readonly roles: readonly string[];
}

export interface WalletOffer {
  /** The credential identifier the pre-authorised code names (a UUID). */
  readonly id: string;
  readonly type: string;
  readonly recordId: number;
  /** The credential configuration offered (one record type in one format). */
  readonly configurationId: string;
  /** The wallet subject the holder must be signed in as (GOV.UK Wallet's walletSubjectId). */
  readonly walletSubject?: string;
  /** SHA-256 (hex) of the transaction code, when the offer has one. */
  readonly txCodeHash?: string;
  readonly offeredBy: OfferedBy;
  /** Epoch ms after which its pre-authorised code is refused. */
  readonly expiresAt: number;
}

export type NotificationEvent = 'credential_accepted' | 'credential_failure' | 'credential_deleted';
export const NOTIFICATION_EVENTS: readonly NotificationEvent[] = [
  'credential_accepted',
  'credential_failure',
  'credential_deleted',
];

export interface OfferState {
  readonly offer: WalletOffer;
  /** Failed transaction-code guesses so far. */
  readonly txCodeFailures: number;
  /** Too many failed guesses: the offer can no longer be used. */
  readonly dead: boolean;
  /** Whether the pre-authorised code was exchanged for an access token. */
  readonly codeUsed: boolean;
  /** The notification id of the credential issued, once it was. */
  readonly notificationId?: string;
  /** The wallet's notifications, oldest first. */
  readonly notifications: readonly { readonly event: NotificationEvent; readonly at: number }[];
}

export interface WalletStore {
  createOffer(offer: WalletOffer): Promise<void>;
  offer(id: string): Promise<OfferState | undefined>;
  /** Counts a wrong transaction code; at `max` failures the offer dies. Whether it is now dead. */
  failTxCode(id: string, max: number): Promise<boolean>;
  /** Marks the pre-authorised code exchanged: true the first time, false if it was already (or the offer is dead). */
  useCode(id: string): Promise<boolean>;
  /** Marks the offer's credential issued under `notificationId`: true the first time, false if it already was. */
  redeem(id: string, notificationId: string): Promise<boolean>;
  /** Keeps a nonce handed out, until `expiresAt` (epoch ms). */
  addNonce(nonce: string, expiresAt: number): Promise<void>;
  /** Uses a nonce up: true if it was handed out, unexpired and unused. */
  useNonce(nonce: string): Promise<boolean>;
  /** Keeps a notification with the offer whose credential it names: false when no offer issued under that id. */
  notify(offerId: string, notificationId: string, event: NotificationEvent): Promise<boolean>;
}
