/**
 * Version 18: the OpenID4VCI pick-up (docs/wallets.md). `wallet_offer` holds each credential offer
 * a department made: the registration and credential configuration, the wallet subject it is for,
 * the transaction code's digest, who asked (the pick-up is rendered and audited as them), when its
 * pre-authorised code expires, the failed guesses of its transaction code (at the cap it is dead),
 * whether its code was exchanged and whether its credential was issued (each once: the statements
 * that set them test them). `wallet_nonce` holds the nonces handed out, until used or expired;
 * `wallet_notification` what the wallet said it did with the credential.
 */
export const name = 'wallet pick-up: offers, nonces, notifications';

export const walletOffers = `
CREATE TABLE wallet_offer (
  id uuid PRIMARY KEY,
  record_type text NOT NULL,
  record_id bigint NOT NULL,
  configuration_id text NOT NULL,
  wallet_subject text,
  tx_code_hash text,
  offered_by jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  tx_code_failures integer NOT NULL DEFAULT 0,
  dead boolean NOT NULL DEFAULT false,
  code_used boolean NOT NULL DEFAULT false,
  notification_id text UNIQUE,
  redeemed_at timestamptz
);
CREATE INDEX wallet_offer_record ON wallet_offer (record_type, record_id);
CREATE TABLE wallet_nonce (
  nonce text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX wallet_nonce_expiry ON wallet_nonce (expires_at);
CREATE TABLE wallet_notification (
  seq bigserial PRIMARY KEY,
  offer_id uuid NOT NULL REFERENCES wallet_offer (id),
  event text NOT NULL CHECK (event IN ('credential_accepted', 'credential_failure', 'credential_deleted')),
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_notification_offer ON wallet_notification (offer_id);
`;
