/**
 * A credential offer (OpenID4VCI 1.0 section 4.1), by value in a deep link: the configuration
 * offered, this issuer, and the pre-authorised code grant with its code and, when asked for, the
 * transaction code the holder types (sent separately, kept only as its digest).
 */
import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { sha256 } from '../../digest.ts';
import type { RecordReader } from '../../model/store.ts';
import type { OfferedBy, WalletOffer, WalletStore } from '../../model/wallet.ts';
import type { FormatId } from '../formats/format.ts';
import type { FormatRegistry } from '../formats/index.ts';
import { type Refusal, issueRefusal } from '../issuable.ts';
import type { IssuerKeys } from '../keys.ts';
import { PRE_AUTHORIZED_GRANT } from './metadata.ts';
import { preAuthorizedCode } from './tokens.ts';

/** Digits of a transaction code. */
export const TX_CODE_LENGTH = 6;

export interface OfferRequest {
  readonly type: string;
  readonly recordId: number;
  readonly configurationId: string;
  readonly walletSubject?: string;
  readonly txCode: boolean;
  readonly offeredBy: OfferedBy;
}

export interface OfferSettings {
  readonly keys: IssuerKeys;
  readonly issuer: string;
  /** The pre-authorised code's audience: the authorization server that exchanges it. */
  readonly audience: string;
  readonly clientId: string;
  /** What the deep link starts with (WALLET_OFFER_URL). */
  readonly offerUrl: string;
  readonly ttlS: number;
  readonly now?: number;
}

export interface MadeOffer {
  readonly offer: WalletOffer;
  /** The deep link, its `credential_offer` parameter the offer as JSON. */
  readonly link: string;
  readonly txCode?: string;
  readonly expiresAt: string;
}

export const txCodeDigest = (code: string) => sha256(`tx_code:${code}`);

/** Whether a typed code is the offer's, in time that says nothing of how much of it was right. */
export const txCodeMatches = (typed: string, digest: string) =>
  timingSafeEqual(Buffer.from(txCodeDigest(typed)), Buffer.from(digest));

export function makeOffer(request: OfferRequest, settings: OfferSettings): MadeOffer {
  const now = settings.now ?? Date.now();
  const iat = Math.floor(now / 1000);
  const exp = iat + settings.ttlS;
  const id = randomUUID();
  const txCode = request.txCode ? String(randomInt(10 ** TX_CODE_LENGTH)).padStart(TX_CODE_LENGTH, '0') : undefined;
  const code = preAuthorizedCode(settings.keys, {
    issuer: settings.issuer,
    audience: settings.audience,
    clientId: settings.clientId,
    offerId: id,
    iat,
    exp,
  });
  const grant = {
    'pre-authorized_code': code,
    ...(txCode
      ? {
          tx_code: {
            input_mode: 'numeric',
            length: TX_CODE_LENGTH,
            description: 'The code the department gave you with this offer',
          },
        }
      : {}),
  };
  const credentialOffer = {
    credential_issuer: settings.issuer,
    credential_configuration_ids: [request.configurationId],
    grants: { [PRE_AUTHORIZED_GRANT]: grant },
  };
  const offer: WalletOffer = {
    id,
    type: request.type,
    recordId: request.recordId,
    configurationId: request.configurationId,
    ...(request.walletSubject !== undefined ? { walletSubject: request.walletSubject } : {}),
    ...(txCode ? { txCodeHash: txCodeDigest(txCode) } : {}),
    offeredBy: request.offeredBy,
    expiresAt: exp * 1000,
  };
  return {
    offer,
    link: `${settings.offerUrl}?credential_offer=${encodeURIComponent(JSON.stringify(credentialOffer))}`,
    ...(txCode ? { txCode } : {}),
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

export interface OfferDependencies {
  readonly records: Pick<RecordReader, 'lookupJson'>;
  readonly wallet: WalletStore;
  readonly registry: FormatRegistry;
}

export interface RegistrationOffer {
  readonly type: string;
  readonly recordId: number;
  readonly format: string;
  readonly walletSubject?: string;
  readonly txCode: boolean;
  readonly offeredBy: OfferedBy;
}

export type OfferOutcome =
  | { readonly made: MadeOffer }
  | { readonly unknownFormat: true }
  | { readonly notFound: true }
  | { readonly refused: Refusal };

/**
 * An offer of a registration, made and kept, for the API's route and the command alike: the
 * format must be issued for the type, the registration held and issuable (issuable.ts). A store
 * that fails rejects; the caller audits what was made.
 */
export async function offerRegistration(
  dependencies: OfferDependencies,
  request: RegistrationOffer,
  settings: OfferSettings,
): Promise<OfferOutcome> {
  const configuration = dependencies.registry.configurationOf(request.type, request.format as FormatId);
  if (!configuration) return { unknownFormat: true };
  const stored = await dependencies.records.lookupJson(request.type, String(request.recordId));
  if (stored === undefined) return { notFound: true };
  const refused = issueRefusal(JSON.parse(stored) as Record<string, unknown>, configuration.description);
  if (refused) return { refused };
  const made = makeOffer({ ...request, configurationId: configuration.id }, settings);
  await dependencies.wallet.createOffer(made.offer);
  return { made };
}
