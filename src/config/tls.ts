/**
 * HTTPS and client certificates: the files, read and checked together when the configuration is
 * loaded (a key that is not the certificate's is a problem then, not a failed handshake later).
 */
import { createPrivateKey } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { certificatesIn, readSetting } from './pem.ts';
import { opaque, type Settled } from './shape.ts';

/** The certificate a process presents; both the API and the pages' own process serve HTTPS with them. */
export const TlsFiles = {
  TLS_CERT: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'PEM file of the certificate the service presents (then its chain); with TLS_KEY, the service ' +
        'serves HTTPS only',
    }),
  ),
  TLS_KEY: Type.Optional(
    Type.String({ minLength: 1, description: 'PEM file of the private key of TLS_CERT (unencrypted)' }),
  ),
};

/** Mutual TLS, for the API. */
export const ClientCa = {
  TLS_CLIENT_CA: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'PEM file of the CA certificates whose client certificates are accepted: every connection must ' +
        'then present one (mutual TLS); needs TLS_CERT',
    }),
  ),
};

export const TlsConfig = Type.Object({
  /** PEM: the certificate, then its chain. */
  cert: opaque<Buffer>(),
  /** PEM: its private key. */
  key: opaque<Buffer>(),
  /** PEM: the CA certificates a client certificate must be issued by; without it none is asked for. */
  clientCa: Type.Optional(opaque<Buffer>()),
});
export type TlsConfig = Settled<typeof TlsConfig>;

export function tlsConfig(
  value: { TLS_CERT?: string; TLS_KEY?: string; TLS_CLIENT_CA?: string },
  problems: string[],
): TlsConfig | undefined {
  const { TLS_CERT, TLS_KEY, TLS_CLIENT_CA } = value;
  if (!TLS_CERT || !TLS_KEY) {
    if (TLS_CERT || TLS_KEY)
      problems.push(
        `${TLS_CERT ? 'TLS_KEY' : 'TLS_CERT'} is not set: TLS_CERT and TLS_KEY go together (the ` +
          'certificate and its private key)',
      );
    if (TLS_CLIENT_CA)
      problems.push(
        'TLS_CLIENT_CA is set without TLS_CERT and TLS_KEY: client certificates need the service to serve HTTPS',
      );
    return undefined;
  }
  const cert = readSetting('TLS_CERT', TLS_CERT, problems);
  const key = readSetting('TLS_KEY', TLS_KEY, problems);
  const clientCa = TLS_CLIENT_CA ? readSetting('TLS_CLIENT_CA', TLS_CLIENT_CA, problems) : undefined;
  if (!cert || !key || (TLS_CLIENT_CA && !clientCa)) return undefined;
  const [leaf] = certificatesIn('TLS_CERT', TLS_CERT, cert, problems);
  if (clientCa) certificatesIn('TLS_CLIENT_CA', TLS_CLIENT_CA as string, clientCa, problems);
  try {
    const privateKey = createPrivateKey(key);
    if (leaf && !leaf.checkPrivateKey(privateKey))
      problems.push(`TLS_KEY=${JSON.stringify(TLS_KEY)}: the key is not the one of the certificate in TLS_CERT`);
  } catch {
    problems.push(`TLS_KEY=${JSON.stringify(TLS_KEY)}: the file holds no unencrypted PEM private key`);
  }
  return { cert, key, clientCa };
}
