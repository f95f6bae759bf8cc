/** Client certificates for mutual TLS, through undici's Agent (the platform fetch takes none). */
import { Agent, type Dispatcher } from 'undici';

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
  return {
    dispatcher: new Agent({
      connect: { cert, key, ca: ca as string | Buffer | (string | Buffer)[] | undefined, servername },
    }),
  };
}
