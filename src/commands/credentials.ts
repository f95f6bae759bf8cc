/**
 * `lev-api credentials`: checking a digital certificate offline, as a relying party would, and
 * rotating the issuer's signing key (docs/credentials.md).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { CredentialVerificationError, recordClaims, verifyCredential } from '@lev-api/client';
import { readIssuerKeyFile } from '../config/credentials.ts';
import { issuerKey, newIssuerKey, privateJwk } from '../credentials/keys.ts';
import { UsageError } from '../errors.ts';
import type { Command } from './command.ts';
import { parseArguments } from './arguments.ts';
import { offer } from './credential-offer.ts';

const USAGE = `lev-api credentials verify FILE --issuer URL[,URL...] [--nonce NONCE] [--allow-http]
       lev-api credentials rotate-key --file FILE [--alg ES256|EdDSA]
       DATABASE_URL=postgres://... lev-api credentials offer --type T --id N --format F [--wallet-subject S] [--tx-code]

  verify      checks the credential (or presentation) in FILE ('-' for standard input): the issuer's
              signature with the keys it publishes, expiry, every disclosure, the holder's key binding
              (with --nonce, the nonce the holder was given) and its status list; prints what it
              discloses. Exit 0 when genuine and still standing, 1 when not. --issuer names the issuers
              believed; --allow-http believes an http:// one (the mock)
  rotate-key  puts a new signing key (ES256 by default) first in the key file CREDENTIAL_KEY_FILE names,
              keeping the earlier ones so that what they signed verifies until it expires; restart the
              serving processes to sign with it
  offer       a credential offer of the registration for a wallet (docs/wallets.md): prints its deep link, and
              with --tx-code the transaction code to send the holder separately; needs CREDENTIAL_ISSUER_URL and
              the issuer's configured key, and is audited`;

async function verify(args: string[]): Promise<number> {
  const { values, positionals } = parseArguments(args, { issuer: { type: 'string' }, nonce: { type: 'string' }, 'allow-http': { type: 'boolean' } }, { positionals: true });
  if (positionals.length !== 1) throw new UsageError('name one FILE holding the credential');
  if (!values.issuer) throw new UsageError('--issuer is required: the issuer URLs believed, e.g. https://lev-api.example.gov.uk');
  const [file] = positionals;
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    const verified = await verifyCredential(text, {
      trustedIssuers: values.issuer.split(','),
      allowHttp: values['allow-http'] ?? false,
      ...(values.nonce ? { nonce: values.nonce } : {}),
    });
    console.log(
      JSON.stringify(
        {
          genuine: true,
          stands: verified.stands,
          type: verified.recordType,
          issuer: verified.issuer,
          issuedAt: verified.issuedAt.toISOString(),
          expiresAt: verified.expiresAt.toISOString(),
          holderBound: verified.holderBound,
          disclosed: recordClaims(verified),
        },
        null,
        2,
      ),
    );
    if (!verified.stands) console.error('lev-api credentials: genuine, but the registration has changed since: the credential no longer stands');
    return verified.stands ? 0 : 1;
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
  const keys = [made, ...earlier].map(async (key) => ({ ...privateJwk(key), kid: (await issuerKey(key)).kid, alg: (await issuerKey(key)).alg }));
  // Written beside the file, then moved over it: a reader never sees half a file.
  const next = `${values.file}.new`;
  writeFileSync(next, `${JSON.stringify({ keys: await Promise.all(keys) }, null, 2)}\n`, { mode: 0o600 });
  renameSync(next, values.file);
  console.log(`lev-api credentials: ${values.file} now signs with ${kid} (${alg}); ${earlier.length} earlier key(s) kept and published`);
  return 0;
}

export const credentialsCommand: Command = {
  summary: 'Check a digital certificate offline, rotate the issuer key, or make a wallet offer',
  usage: () => USAGE,
  async run(args, env, descriptions) {
    const [action, ...rest] = args;
    if (action === 'verify') return verify(rest);
    if (action === 'rotate-key') return rotateKey(rest);
    if (action === 'offer') return offer(rest, env, descriptions);
    throw new UsageError(action ? `unknown action '${action}'; the actions are verify, rotate-key, offer` : 'name an action: verify, rotate-key or offer');
  },
};
