/**
 * `lev-api credentials`: checking a digital certificate offline in any format the service issues,
 * as a relying party would, rotating the issuer's signing key and the mdoc chain, and making a
 * wallet offer (docs/credentials.md, docs/wallets.md).
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CredentialVerificationError,
  type VerifiedCredential,
  type VerifiedWalletCredential,
  recordClaims,
  verifyCredential,
  verifyJwtVc,
  verifyMdoc,
} from '@lev-api/client';
import { readIssuerKeyFile } from '../config/credentials.ts';
import { issuerKey, newIssuerKey, privateJwk } from '../credentials/keys.ts';
import { certificatePem, makeDocumentSigner, makeIaca, newMdocKey } from '../credentials/mdoc-certificates.ts';
import { UsageError } from '../errors.ts';
import type { Command } from './command.ts';
import { parseArguments } from './arguments.ts';
import { offer } from './credential-offer.ts';

const USAGE = `lev-api credentials verify FILE --issuer URL[,URL...] [--nonce NONCE] [--allow-http]
       lev-api credentials rotate-key --file FILE [--alg ES256|EdDSA]
       lev-api credentials iaca --dir DIR [--days N] [--issuer URL]
       lev-api credentials document-signer --dir DIR [--days N] [--issuer URL]
       DATABASE_URL=postgres://... lev-api credentials offer --type T --id N --format F [--wallet-subject S] [--tx-code]

  verify      checks the credential in FILE ('-' for standard input), told apart by its shape: an SD-JWT
              VC or a presentation of one (the holder's key binding checked with --nonce, the nonce the
              holder was given), an mdoc (base64url, against the IACAs the issuer publishes) or a JWT
              VC (against the issuer's did:web document): the issuer's signature, expiry, every
              disclosure or item, and its status list; prints what it holds. Exit 0 when genuine and
              still standing, 1 when not. --issuer names the issuers believed; --allow-http believes
              an http:// one (the mock)
  rotate-key  puts a new signing key (ES256 by default) first in the key file CREDENTIAL_KEY_FILE names,
              keeping the earlier ones so that what they signed verifies until it expires; restart the
              serving processes to sign with it
  iaca        makes (or rotates) the mdoc IACA root: a new P-256 key in DIR/iaca-key.pem (keep it offline)
              and its self-signed certificate (--days, 3650 by default) first in DIR/iacas.pem, the earlier
              IACAs kept after it so that mdocs their signers signed verify until they expire:
              CREDENTIAL_IACA_CERTIFICATES. Make a document signer next
  document-signer  makes (or rotates) the mdoc document signer: a new P-256 key and its certificate
              (--days, 365 by default, never past the IACA's), issued by the IACA of DIR/iaca-key.pem and
              the first of DIR/iacas.pem, in DIR/document-signer.pem: CREDENTIAL_DOCUMENT_SIGNER; restart
              the serving processes to sign with it. --issuer names the issuer URL in both certificates
  offer       a credential offer of the registration for a wallet (docs/wallets.md): prints its deep link, and
              with --tx-code the transaction code to send the holder separately; needs CREDENTIAL_ISSUER_URL and
              the issuer's configured key, and is audited`;

/** The files `iaca` and `document-signer` keep in their folder. */
const IACA_KEY_FILE = 'iaca-key.pem';
const IACAS_FILE = 'iacas.pem';
const DOCUMENT_SIGNER_FILE = 'document-signer.pem';
const PEM_CERTIFICATES = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Which of the service's formats a credential is, by its shape: an mdoc is base64url alone (CBOR),
 * a JWT VC a JWT alone; an SD-JWT has its disclosures after a `~`, and whatever is none of these is
 * given to the SD-JWT check, which says what a credential needs.
 */
function formatOf(text: string): 'dc+sd-jwt' | 'mso_mdoc' | 'jwt_vc_json' {
  if (/^[A-Za-z0-9_-]+$/.test(text)) return 'mso_mdoc';
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(text)) return 'jwt_vc_json';
  return 'dc+sd-jwt';
}

/** What `verify` prints of a genuine credential of any format, with whether it stands. */
async function verified(
  text: string,
  options: { trustedIssuers: string[]; allowHttp: boolean; nonce?: string },
): Promise<{ stands: boolean } & Record<string, unknown>> {
  const format = formatOf(text);
  let credential: VerifiedCredential | VerifiedWalletCredential;
  let holding: Record<string, unknown>;
  if (format === 'dc+sd-jwt') {
    const sdJwt = await verifyCredential(text, options);
    [credential, holding] = [sdJwt, { holderBound: sdJwt.holderBound, disclosed: recordClaims(sdJwt) }];
  } else {
    // Checked as issued: its holder proves possession in a presentation, which has no nonce here.
    if (options.nonce)
      throw new UsageError(`--nonce checks an SD-JWT presentation's key binding; this is ${format}, checked as issued`);
    const wallet = await (format === 'mso_mdoc' ? verifyMdoc : verifyJwtVc)(text, options);
    [credential, holding] = [wallet, { holder: wallet.holder, disclosed: wallet.claims }];
  }
  return {
    genuine: true,
    format,
    stands: credential.stands,
    type: credential.recordType,
    issuer: credential.issuer,
    issuedAt: credential.issuedAt.toISOString(),
    expiresAt: credential.expiresAt.toISOString(),
    ...holding,
  };
}

async function verify(args: string[]): Promise<number> {
  const { values, positionals } = parseArguments(
    args,
    { issuer: { type: 'string' }, nonce: { type: 'string' }, 'allow-http': { type: 'boolean' } },
    { positionals: true },
  );
  if (positionals.length !== 1) throw new UsageError('name one FILE holding the credential');
  if (!values.issuer)
    throw new UsageError('--issuer is required: the issuer URLs believed, e.g. https://lev-api.example.gov.uk');
  const [file] = positionals;
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    const report = await verified(text.trim(), {
      trustedIssuers: values.issuer.split(','),
      allowHttp: values['allow-http'] ?? false,
      ...(values.nonce ? { nonce: values.nonce } : {}),
    });
    console.log(JSON.stringify(report, null, 2));
    if (!report.stands)
      console.error(
        'lev-api credentials: genuine, but the registration has changed since: the credential no longer stands',
      );
    return report.stands ? 0 : 1;
  } catch (error) {
    if (!(error instanceof CredentialVerificationError)) throw error;
    console.log(JSON.stringify({ genuine: false, reason: error.message }, null, 2));
    console.error(`lev-api credentials: not genuine: ${error.message}`);
    return 1;
  }
}

async function rotateKey(args: string[]): Promise<number> {
  const { values } = parseArguments(args, { file: { type: 'string' }, alg: { type: 'string' } });
  if (!values.file) throw new UsageError('--file is required: the key file CREDENTIAL_KEY_FILE names');
  const alg = values.alg ?? 'ES256';
  if (alg !== 'ES256' && alg !== 'EdDSA') throw new UsageError(`--alg ${alg}: ES256 or EdDSA`);
  const earlier = existsSync(values.file) ? readIssuerKeyFile(readFileSync(values.file, 'utf8')) : [];
  const made = newIssuerKey(alg);
  const { kid } = await issuerKey(made);
  const keys = [made, ...earlier].map(async (key) => ({
    ...privateJwk(key),
    kid: (await issuerKey(key)).kid,
    alg: (await issuerKey(key)).alg,
  }));
  // Written beside the file, then moved over it: a reader never sees half a file.
  const next = `${values.file}.new`;
  writeFileSync(next, `${JSON.stringify({ keys: await Promise.all(keys) }, null, 2)}\n`, { mode: 0o600 });
  renameSync(next, values.file);
  console.log(
    `lev-api credentials: ${values.file} now signs with ${kid} (${alg}); ${earlier.length} earlier key(s) kept ` +
      `and published`,
  );
  return 0;
}

/** Writes beside the file, then moves it over: a reader never sees half a file. */
function replaceFile(file: string, text: string, mode: number) {
  const next = `${file}.new`;
  writeFileSync(next, text, { mode });
  renameSync(next, file);
}

const daysOf = (value: string | undefined, fallback: number) => {
  const days = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 10_000)
    throw new UsageError(`--days ${value}: a whole number of days from 1 to 10000`);
  return days;
};

async function iaca(args: string[]): Promise<number> {
  const { values } = parseArguments(args, {
    dir: { type: 'string' },
    days: { type: 'string' },
    issuer: { type: 'string' },
  });
  if (!values.dir) throw new UsageError('--dir is required: the folder of the IACA key and certificates');
  const days = daysOf(values.days, 3650);
  const keyFile = join(values.dir, IACA_KEY_FILE);
  const certificatesFile = join(values.dir, IACAS_FILE);
  const earlier = existsSync(certificatesFile)
    ? (readFileSync(certificatesFile, 'utf8').match(PEM_CERTIFICATES) ?? [])
    : [];
  const key = newMdocKey();
  const certificate = await makeIaca(key, days, values.issuer ? { issuerUrl: values.issuer } : {});
  // The key first: a certificate never names a key that is not on disk.
  replaceFile(keyFile, key.export({ format: 'pem', type: 'pkcs8' }).toString(), 0o600);
  replaceFile(certificatesFile, [certificatePem(certificate), ...earlier.map((pem) => `${pem}\n`)].join(''), 0o644);
  console.log(
    `lev-api credentials: ${certificatesFile} now starts with a new IACA (${days} days); ${earlier.length} ` +
      `earlier kept. Make a document signer it issues next`,
  );
  return 0;
}

async function documentSignerCommand(args: string[]): Promise<number> {
  const { values } = parseArguments(args, {
    dir: { type: 'string' },
    days: { type: 'string' },
    issuer: { type: 'string' },
  });
  if (!values.dir) throw new UsageError('--dir is required: the folder of the IACA key and certificates');
  const days = daysOf(values.days, 365);
  let iacaKey;
  let iacaCertificate;
  try {
    iacaKey = createPrivateKey(readFileSync(join(values.dir, IACA_KEY_FILE), 'utf8'));
    const [first] = readFileSync(join(values.dir, IACAS_FILE), 'utf8').match(PEM_CERTIFICATES) ?? [];
    if (!first) throw new Error(`${IACAS_FILE} holds no certificate`);
    iacaCertificate = new Uint8Array(new X509Certificate(first).raw);
  } catch (error) {
    throw new UsageError(
      `${values.dir} has no IACA to issue it ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): run 'lev-api credentials iaca ` +
        `--dir ${values.dir}' first`,
    );
  }
  const key = newMdocKey();
  const certificate = await makeDocumentSigner(
    key,
    { key: iacaKey, certificate: iacaCertificate },
    days,
    values.issuer ? { issuerUrl: values.issuer } : {},
  );
  const file = join(values.dir, DOCUMENT_SIGNER_FILE);
  replaceFile(file, `${key.export({ format: 'pem', type: 'pkcs8' }).toString()}${certificatePem(certificate)}`, 0o600);
  console.log(
    `lev-api credentials: ${file} holds a new document signer until ${new X509Certificate(certificate).validTo}; ` +
      `restart the serving processes to sign with it`,
  );
  return 0;
}

export const credentialsCommand: Command = {
  summary:
    'Check a digital certificate offline, rotate the issuer key and the mdoc IACA and document signer, or make a ' +
    'wallet offer',
  usage: () => USAGE,
  async run(args, env, descriptions) {
    const [action, ...rest] = args;
    if (action === 'verify') return verify(rest);
    if (action === 'rotate-key') return rotateKey(rest);
    if (action === 'iaca') return iaca(rest);
    if (action === 'document-signer') return documentSignerCommand(rest);
    if (action === 'offer') return offer(rest, env, descriptions);
    const actions = 'verify, rotate-key, iaca, document-signer, offer';
    throw new UsageError(
      action ? `unknown action '${action}'; the actions are ${actions}` : `name an action: ${actions}`,
    );
  },
};
