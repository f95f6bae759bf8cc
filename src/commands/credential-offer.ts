/**
 * `lev-api credentials offer`: a credential offer made from a shell, for operators and scripts, as
 * the API's `POST /v1/credentials/{type}/{id}/offer` makes it (docs/wallets.md): kept in
 * DATABASE_URL, where the serving processes find it, signed with the issuer's configured key,
 * which they verify it with, and audited as the operator's.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../config/index.ts';
import { formatRegistry, walletFormats } from '../credentials/formats/index.ts';
import { issuerKeys } from '../credentials/keys.ts';
import { documentSignerWhenNeeded } from '../credentials/mdoc-certificates.ts';
import { canonicalSystemNumber, isSystemNumber } from '../records/system-number.ts';
import { offerRegistration } from '../credentials/openid4vci/offer.ts';
import { openPostgresBackend } from '../backend/postgres.ts';
import { UsageError } from '../errors.ts';
import type { RecordDescription } from '../records/define.ts';
import { CREDENTIALS_ROLE } from '../model/identity.ts';
import { parseArguments } from './arguments.ts';

/** Who the trail names as having made the offer. */
const OPERATOR = { username: 'lev-api credentials offer', client: 'lev-api-cli' };

export async function offer(
  args: string[],
  env: Record<string, string | undefined>,
  descriptions: readonly RecordDescription[],
): Promise<number> {
  const { values } = parseArguments(args, {
    type: { type: 'string' },
    id: { type: 'string' },
    format: { type: 'string' },
    'wallet-subject': { type: 'string' },
    'tx-code': { type: 'boolean' },
  });
  const types = descriptions.map((description) => description.name);
  if (!values.type || !types.includes(values.type)) throw new UsageError(`--type must be one of ${types.join(', ')}`);
  if (!values.id || !isSystemNumber(values.id)) throw new UsageError('--id must be a system number (digits)');
  if (!values.format) throw new UsageError('--format is required (dc+sd-jwt, for one)');
  if (values['wallet-subject'] !== undefined && !/^\S{1,200}$/.test(values['wallet-subject']))
    throw new UsageError('--wallet-subject must be 1 to 200 characters without spaces');
  const config = loadConfig(env, { serving: false });
  if (!config.database)
    throw new UsageError('DATABASE_URL is required: the offer is kept where the serving processes find it');
  if (!config.credentials.issuer)
    throw new UsageError('CREDENTIAL_ISSUER_URL is required: the offer names the issuer the wallet calls');
  if (!config.credentials.keys)
    throw new UsageError(
      'CREDENTIAL_SIGNING_KEY or CREDENTIAL_KEY_FILE is required: the serving processes verify the code with that key',
    );
  if (values['tx-code'] && config.wallet.authorizationServer)
    throw new UsageError('--tx-code: offers exchanged at an external authorization server take no transaction code');
  const keys = await issuerKeys(config.credentials.keys);
  const registry = formatRegistry(
    walletFormats({
      keys,
      signer: documentSignerWhenNeeded(config.credentials.mdoc, { issuerUrl: config.credentials.issuer }),
      validityS: config.credentials.validityS,
    }),
    descriptions,
  );
  const type = values.type;
  const recordId = Number(canonicalSystemNumber(values.id));
  const backend = openPostgresBackend(config.database, descriptions);
  try {
    const outcome = await offerRegistration(
      { records: backend.records, wallet: backend.wallet, registry },
      {
        type,
        recordId,
        format: values.format,
        ...(values['wallet-subject'] !== undefined ? { walletSubject: values['wallet-subject'] } : {}),
        txCode: values['tx-code'] ?? false,
        offeredBy: { ...OPERATOR, groups: [], roles: [CREDENTIALS_ROLE, type] },
      },
      {
        keys,
        issuer: config.credentials.issuer,
        audience: config.wallet.authorizationServer ?? config.credentials.issuer,
        clientId: config.wallet.clientId,
        offerUrl: config.wallet.offerUrl,
        ttlS: config.wallet.offerTtlS,
      },
    );
    if ('unknownFormat' in outcome)
      throw new UsageError(
        `--format ${values.format} is not issued for ${type}: ${registry.formats.map((f) => f.format).join(', ')}`,
      );
    if ('notFound' in outcome) {
      console.error(`lev-api credentials: no ${type} registration has system number ${recordId}`);
      return 1;
    }
    if ('refused' in outcome) {
      console.error(`lev-api credentials: ${outcome.refused.message}`);
      return 1;
    }
    await backend.audit.record({
      ...OPERATOR,
      groups: [],
      dataset: type,
      operation: 'credential',
      path: `/v1/credentials/${type}/${recordId}/offer`,
      query: '',
      results: 1,
      requestId: randomUUID(),
      records: [{ type, id: recordId }],
    });
    await backend.audit.flush();
    console.log(outcome.made.link);
    if (outcome.made.txCode) console.log(`tx_code: ${outcome.made.txCode}`);
    console.error(`lev-api credentials: the offer expires at ${outcome.made.expiresAt}`);
    return 0;
  } finally {
    await backend.close();
  }
}
