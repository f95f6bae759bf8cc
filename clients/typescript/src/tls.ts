/**
 * Client certificates for mutual TLS, through undici's Agent (the platform fetch takes none). undici
 * is loaded by the first call: a client without certificates, and the service's own pages, which
 * import this package, do without its hundred modules.
 */
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

export interface MutualTlsOptions {
  /** PEM certificate (then its chain) the client presents. */
  readonly cert: string | Buffer;
  /** PEM private key of `cert`. */
  readonly key: string | Buffer;
  /** PEM CA certificates the service's certificate is checked against (default: the system's). */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** The name the service's certificate must carry, when it is not the URL's host. */
  readonly servername?: string;
}

/** What `createLevClient` takes to present a client certificate: spread it into the options. */
export function mutualTls({ cert, key, ca, servername }: MutualTlsOptions): { dispatcher: Dispatcher } {
  const { Agent } = require('undici') as typeof import('undici');
  return {
    dispatcher: new Agent({
      connect: { cert, key, ca: ca as string | Buffer | (string | Buffer)[] | undefined, servername },
    }),
  };
}
