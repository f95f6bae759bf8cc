/**
 * A wallet this project did not write: the OpenWallet Foundation's `@openid4vc/openid4vci`
 * `Openid4vciClient`, given a P-256 key of its own, and what the pick-up tests share (asking for an
 * offer, verifying what each format issues).
 */
import assert from 'node:assert/strict';
import {
  type KeyObject,
  createHash,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { clientAuthenticationNone, setGlobalConfig } from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { Verifier, parse } from '@auth0/mdl';
import { DataItem, cborEncode } from '@auth0/mdl/lib/cbor/index.js';
import { type JWK, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { didKey, didWeb } from '../../../src/credentials/did.ts';
import { mdocDoctype } from '../../../src/credentials/formats/mso-mdoc.ts';
import { inDeviceResponse, present } from '../../credentials/formats/mdoc-presentation.ts';

type Json = Record<string, any>;

// The mock listens on plain HTTP at 127.0.0.1; the library takes only https:// unless told.
setGlobalConfig({ allowInsecureUrls: true });

const b64 = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

export interface Wallet {
  readonly client: Openid4vciClient;
  readonly publicJwk: JWK;
  readonly privateKey: KeyObject;
  /** A JWT signed by the wallet's key with this header and payload. */
  signJwt(header: Json, payload: Json): string;
}

export function newWallet(): Wallet {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicJwk = publicKey.export({ format: 'jwk' }) as JWK;
  const signJwt = (header: Json, payload: Json) => {
    const input = `${b64(header)}.${b64(payload)}`;
    return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  };
  const client = new Openid4vciClient({
    callbacks: {
      fetch,
      hash: (data, alg) => createHash(alg.replace('-', '').toLowerCase()).update(data).digest(),
      generateRandom: (length) => randomBytes(length),
      clientAuthentication: clientAuthenticationNone({ clientId: 'test-wallet' }),
      signJwt: async (_signer, { header, payload }) => ({
        jwt: signJwt(header, payload),
        signerJwk: publicJwk as never,
      }),
    },
  });
  return { client, publicJwk, privateKey, signJwt };
}

export interface PickedUp {
  readonly credentials: string[];
  readonly notificationId: string;
  readonly accessToken: string;
  readonly configurationId: string;
}

/** The whole pick-up as a wallet does it: the offer resolved, the token, a nonce, a proof, the credential, a notification. */
export async function pickUp(wallet: Wallet, link: string, txCode?: string): Promise<PickedUp> {
  const { client, publicJwk } = wallet;
  const credentialOffer = await client.resolveCredentialOffer(link);
  const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer,
    issuerMetadata,
    ...(txCode ? { txCode } : {}),
  });
  const { c_nonce } = await client.requestNonce({ issuerMetadata });
  const [configurationId] = credentialOffer.credential_configuration_ids;
  const { jwt } = await client.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId: configurationId,
    nonce: c_nonce,
    signer: { method: 'jwk', alg: 'ES256', publicJwk: publicJwk as never },
  });
  const { credentialResponse } = await client.retrieveCredentials({
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
    credentialConfigurationId: configurationId,
    proofs: { jwt: [jwt] },
  });
  const credentials = (credentialResponse.credentials ?? []).map((entry) => (entry as Json).credential as string);
  const notificationId = credentialResponse.notification_id as string;
  assert.ok(notificationId, 'the credential response names a notification id');
  await client.sendNotification({
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
    notification: { notificationId, event: 'credential_accepted' },
  });
  return { credentials, notificationId, accessToken: accessTokenResponse.access_token, configurationId };
}

/** A verifier of JWS signatures with the keys the issuer publishes at /.well-known/jwks.json, by kid. */
export async function publishedKeys(issuer: string) {
  const { keys } = (await (await fetch(`${issuer}/.well-known/jwks.json`)).json()) as { keys: Json[] };
  return (data: string, signature: string) => {
    const header = JSON.parse(Buffer.from(data.split('.')[0], 'base64url').toString());
    const jwk = keys.find((key) => key.kid === header.kid);
    if (!jwk) return false;
    return verify(
      jwk.alg === 'EdDSA' ? null : 'sha256',
      Buffer.from(data),
      { key: createPublicKey({ key: jwk as never, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
  };
}

/** Each format's check of what it issued: genuine, of the issuer and the record, bound to the wallet's key. Every format issued must have one. */
export const VERIFIERS: Record<
  string,
  (credential: string, context: { issuer: string; type: string; recordId: number; wallet: Wallet }) => Promise<void>
> = {
  'dc+sd-jwt': async (credential, { issuer, type, recordId, wallet }) => {
    const sdJwt = new SDJwtVcInstance({
      hasher: digest,
      hashAlg: 'sha-256',
      saltGenerator: generateSalt,
      verifier: await publishedKeys(issuer),
    });
    const { payload } = await sdJwt.verify(credential);
    assert.equal(payload.iss, issuer);
    assert.equal(payload.vct, `${issuer}/v1/credentials/types/${type}`);
    assert.deepEqual(
      (payload.cnf as Json).jwk,
      { kty: 'EC', crv: 'P-256', x: wallet.publicJwk.x, y: wallet.publicJwk.y },
      'bound to the wallet key',
    );
    assert.equal(payload.id, recordId);
  },
  // Presented as a wallet presents it (every element, signed with the wallet's key) to `@auth0/mdl`,
  // which did not make it, with the IACAs the issuer publishes: signature, chain, digests,
  // validity, and the device key the wallet proved.
  mso_mdoc: async (credential, { issuer, type, recordId, wallet }) => {
    const doctype = mdocDoctype(type);
    const { iacas } = (await (await fetch(`${issuer}/.well-known/iacas`)).json()) as {
      iacas: { certificate: string }[];
    };
    const pems = iacas.map(
      ({ certificate }) =>
        `-----BEGIN CERTIFICATE-----\n${certificate.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`,
    );
    const [document] = parse(inDeviceResponse(credential, doctype)).documents;
    const ids = document.issuerSigned.nameSpaces[doctype].map((item) => item.elementIdentifier);
    const transcript = cborEncode(DataItem.fromData([null, null, ['pick-up', 'test-wallet', issuer, 'nonce']]));
    const response = await present(
      credential,
      doctype,
      ids,
      wallet.privateKey.export({ format: 'jwk' }) as JWK,
      transcript,
    );
    const checks: { status: string }[] = [];
    const verified = await new Verifier(pems).verify(response, {
      encodedSessionTranscript: transcript,
      onCheck: (check) => checks.push(check),
    });
    assert.deepEqual(
      checks.filter((check) => check.status !== 'PASSED'),
      [],
    );
    const items = verified.documents[0].issuerSigned.nameSpaces[doctype];
    assert.equal(items.find((item) => item.elementIdentifier === 'id')?.elementValue, recordId);
  },
  // As a relying party or GOV.UK Wallet checks it: the kid a verification method of the issuer's
  // did:web document, served by the issuer, and `jose` checking the signature with that key.
  jwt_vc_json: async (credential, { issuer, type, recordId, wallet }) => {
    const document = (await (await fetch(`${issuer}/.well-known/did.json`)).json()) as {
      id: string;
      verificationMethod: { id: string; publicKeyJwk: JWK }[];
    };
    const { kid } = decodeProtectedHeader(credential);
    assert.equal(document.id, didWeb(issuer));
    const method = document.verificationMethod.find((m) => m.id === kid);
    assert.ok(method, 'the kid is a verification method of the did:web document');
    const { payload } = await jwtVerify(credential, await importJWK(method.publicKeyJwk, 'ES256'), {
      issuer: document.id,
      typ: 'vc+jwt',
    });
    assert.equal(payload.sub, didKey(wallet.publicJwk), 'bound to the wallet key');
    assert.equal((payload.credentialSubject as Json)[`${type}Id`], recordId);
  },
};
