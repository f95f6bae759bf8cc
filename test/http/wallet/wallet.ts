/**
 * A wallet this project did not write: the OpenWallet Foundation's `@openid4vc/openid4vci`
 * `Openid4vciClient`, given a P-256 key of its own, and what the pick-up tests share (asking for an
 * offer, verifying what each format issues, reading its status as its verifier does).
 */
import assert from 'node:assert/strict';
import {
  type KeyObject,
  X509Certificate,
  createHash,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { clientAuthenticationNone, setGlobalConfig } from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { Verifier, parse } from '@auth0/mdl';
import { DataItem, cborDecode, cborEncode } from '@auth0/mdl/lib/cbor/index.js';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
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
    return (
      `${input}.` +
      `${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
    );
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

/**
 * The whole pick-up as a wallet does it: the offer resolved, the token, a nonce, a proof, the credential, a
 * notification.
 */
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

/**
 * Each format's check of what it issued: genuine, of the issuer and the record, bound to the wallet's key.
 * Every format issued must have one.
 */
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

/**
 * A token status list in its CWT form (Accept: application/statuslist+cwt), read as an mdoc
 * verifier reads it: a tagged COSE_Sign1 whose x5chain certificate the issuer's published IACA
 * issued, its signature checked with node:crypto, its `sub` the list's URI; the entry at an index
 * is 1 where the credential is revoked.
 */
export async function cwtStatusList(issuer: string, uri: string) {
  const response = await fetch(uri, { headers: { accept: 'application/statuslist+cwt' } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/statuslist+cwt');
  const bytes = Buffer.from(await response.arrayBuffer());
  assert.equal(bytes[0], 0xd2, 'a tagged COSE_Sign1');
  const [protectedBytes, unprotected, payload, signature] = cborDecode(bytes.subarray(1)) as [
    Buffer,
    Map<number, unknown>,
    Buffer,
    Buffer,
  ];
  const ds = new X509Certificate(unprotected.get(33) as Buffer);
  const { iacas } = (await (await fetch(`${issuer}/.well-known/iacas`)).json()) as { iacas: { certificate: string }[] };
  const iaca = new X509Certificate(Buffer.from(iacas[0]?.certificate ?? '', 'base64'));
  assert.ok(ds.checkIssued(iaca) && ds.verify(iaca.publicKey), 'the signer chains to the published IACA');
  const toBeSigned = cborEncode(['Signature1', protectedBytes, Buffer.alloc(0), payload]);
  assert.ok(
    verify('sha256', toBeSigned, { key: ds.publicKey, dsaEncoding: 'ieee-p1363' }, signature),
    "the document signer's signature",
  );
  const claims = cborDecode(payload) as Map<number, unknown>;
  assert.equal(claims.get(2), uri, 'the list is the one asked for');
  const bits = inflateSync((claims.get(65533) as Map<string, unknown>).get('lst') as Buffer);
  return {
    headers: response.headers,
    header: cborDecode(protectedBytes) as Map<number, unknown>,
    claims,
    status: (idx: number) => (bits[idx >> 3] >> (idx & 7)) & 1,
  };
}

/** A CBOR map as the decoder may give it, as a plain object. */
const asObject = (value: unknown): Json => (value instanceof Map ? Object.fromEntries(value) : (value as Json));

/** The status list entry of a credential, 0 where it stands, read by each format's verifier as it reads it. */
export const STATUS: Record<
  string,
  (credential: string, context: { issuer: string; type: string }) => Promise<number>
> = {
  // `@sd-jwt/sd-jwt-vc` fetches the list the credential names, checks its signature, and hands the entry to
  // its validator.
  'dc+sd-jwt': async (credential, { issuer }) => {
    const entries: number[] = [];
    await new SDJwtVcInstance({
      hasher: digest,
      hashAlg: 'sha-256',
      verifier: await publishedKeys(issuer),
      statusValidator: async (status) => void entries.push(status),
    }).verify(credential);
    assert.equal(entries.length, 1, 'the status was read');
    return entries[0];
  },
  // The MSO's `status` names the entry; an mdoc verifier reads the list's CWT form, trusting the IACA.
  mso_mdoc: async (credential, { issuer, type }) => {
    const doctype = mdocDoctype(type);
    const { status } = parse(inDeviceResponse(credential, doctype)).documents[0].issuerSigned.issuerAuth
      .decodedPayload as unknown as { status: unknown };
    const { idx, uri } = asObject(asObject(status).status_list);
    return (await cwtStatusList(issuer, uri)).status(idx);
  },
  // The JWT's `status` claim names the entry in the list's JWT form, signed with a key the issuer publishes.
  jwt_vc_json: async (credential, { issuer }) => {
    const [, payload] = credential.split('.');
    const { idx, uri } = (JSON.parse(Buffer.from(payload, 'base64url').toString()) as Json).status.status_list;
    const token = await (await fetch(uri, { headers: { accept: 'application/statuslist+jwt' } })).text();
    const [header, body, signature] = token.split('.');
    assert.ok((await publishedKeys(issuer))(`${header}.${body}`, signature), 'the list is signed by the issuer');
    return getListFromStatusListJWT(token).getStatus(idx);
  },
};
