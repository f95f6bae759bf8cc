/**
 * Digital certificates (docs/credentials.md), wired in one place: the issuer's keys (made at start
 * where none is configured), the status lists in their JWT and CWT forms, the mdoc document signer,
 * and the routes over them: the credentials, the wallet documents and the wallet pick-up
 * (OpenID4VCI, where the backend keeps its state). The app is decorated with `credentialIssuer`,
 * the issuer's URL, for the pages that check certificates against this very process.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AddressInfo } from 'node:net';
import type { CredentialsConfig } from '../../config/credentials.ts';
import type { WalletConfig } from '../../config/wallet.ts';
import { createCredentialIssuer } from '../../credentials/issue.ts';
import { issuerKeys } from '../../credentials/keys.ts';
import { documentSignerWhenNeeded } from '../../credentials/mdoc-certificates.ts';
import type { CredentialStatuses } from '../../model/credentials.ts';
import type { RecordReader } from '../../model/store.ts';
import type { WalletStore } from '../../model/wallet.ts';
import type { CompiledView } from '../../render/view.ts';
import { credentialRoutes } from '../credential-routes.ts';
import { storeUnavailable } from '../route-config.ts';
import { cwtStatusList, statusLists } from '../status-lists.ts';
import type { Transport } from '../transport.ts';
import { walletPlugin } from './wallet.ts';
import { IACAS_PATH, walletDocumentRoutes } from '../wallet-documents.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The issuer's URL, as every credential and status list names it (where lev-credentials is registered). */
    credentialIssuer: () => string;
  }
}

interface CredentialsOptions {
  readonly settings: CredentialsConfig;
  readonly walletSettings: WalletConfig;
  readonly views: readonly CompiledView[];
  readonly records: RecordReader;
  readonly statuses: CredentialStatuses;
  /** The wallet pick-up's state; without it, no pick-up is served. */
  readonly wallet?: WalletStore;
  readonly tls: boolean;
  /**
   * Where a status list just signed is answered before Fastify; absent where something acts on
   * every request Fastify answers (tracing, CORS), so that Fastify answers it too.
   */
  readonly earlyAnswers?: Pick<Transport, 'answerEarly'>;
}

/** The URL a listening server is reached at from this machine: a wildcard address read as localhost. */
function listeningUrl(address: AddressInfo | string | null, tls: boolean): string {
  const scheme = tls ? 'https' : 'http';
  if (!address || typeof address !== 'object') return `${scheme}://localhost`;
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? 'localhost'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `${scheme}://${host}:${address.port}`;
}

export const credentialsPlugin = fp(
  async function credentials(app: FastifyInstance, options: CredentialsOptions) {
    const { settings, views, records, statuses, wallet, tls } = options;
    // The mock's issuer is the address it listens at (no CREDENTIAL_ISSUER_URL there), read once it
    // listens and kept: reading it is a system call, and every credential and status list names it.
    let listeningAt: string | undefined;
    const issuerUrl = () =>
      settings.issuer ??
      listeningAt ??
      (app.server.listening ? (listeningAt = listeningUrl(app.server.address(), tls)) : listeningUrl(null, tls));
    app.decorate('credentialIssuer', issuerUrl);

    const keys = await issuerKeys(settings.keys);
    if (keys.madeAtStart) {
      app.log.info(
        { kid: keys.current.kid },
        'credentials: no issuer key configured, so this process made one at start; relying parties find it ' +
          'at /.well-known/jwt-vc-issuer',
      );
    }
    const lists = statusLists({ statuses, key: () => keys.current, ttlS: settings.statusTtlS, storeUnavailable });
    const mdocSigner = documentSignerWhenNeeded(settings.mdoc, settings.issuer ? { issuerUrl: settings.issuer } : {});
    await app.register(credentialRoutes, {
      views,
      store: records,
      statuses,
      lists,
      keys,
      issuer: createCredentialIssuer(keys, settings.validityS),
      issuerUrl,
      cwt: cwtStatusList({ statuses, signer: mdocSigner, ttlS: settings.statusTtlS, storeUnavailable }),
    });
    await app.register(walletDocumentRoutes, { keys, signer: mdocSigner, issuerUrl });
    if (wallet) {
      await app.register(walletPlugin, {
        config: options.walletSettings,
        views,
        records,
        statuses,
        wallet,
        keys,
        signer: mdocSigner,
        validityS: settings.validityS,
        issuerUrl,
        // Where a verifier finds the IACAs an mdoc's document signer chains to.
        metadataExtra: (issuer) => ({ mdoc_iacas_uri: `${issuer}${IACAS_PATH}` }),
      });
    }
    options.earlyAnswers?.answerEarly(lists.answerEarly({ issuer: issuerUrl, tls, log: app.log }));
  },
  { name: 'lev-credentials' },
);
