/**
 * Certificates for the TLS tests, made at run time with `openssl` (as the
 * README's walkthrough makes them): a CA, certificates it issues (server and
 * client, good and breaking the on-boarding rules), and another CA. Files go
 * in a temporary folder removed when the tests end. And an HTTPS client that
 * opens a new connection for every request, presenting a given certificate.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const openssl = (...args: string[]) => run('openssl', args);

export interface Credential {
  readonly certPath: string;
  readonly keyPath: string;
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly x509: X509Certificate;
}

export interface IssueOptions {
  /** openssl -newkey argument: rsa:2048 (default), rsa:1024, ec... */
  readonly newKey?: string;
  /** Extra -pkeyopt, e.g. ec_paramgen_curve:P-256. */
  readonly keyOption?: string;
  readonly days?: number;
  /** sha256 (default), sha1, md5... */
  readonly digest?: string;
  /** serverAuth (with 127.0.0.1 and localhost as names) or clientAuth (default). */
  readonly usage?: 'serverAuth' | 'clientAuth';
}

export interface Authority extends Credential {
  issue(name: string, options?: IssueOptions): Promise<Credential>;
}

export interface Pki {
  readonly dir: string;
  /** A new CA, valid for 30 days. */
  authority(name: string): Promise<Authority>;
}

async function credential(certPath: string, keyPath: string): Promise<Credential> {
  const [cert, key] = await Promise.all([readFile(certPath), readFile(keyPath)]);
  return { certPath, keyPath, cert, key, x509: new X509Certificate(cert) };
}

export async function createPki(t: Pick<TestContext, 'after'>): Promise<Pki> {
  const dir = await mkdtemp(join(tmpdir(), 'lev-pki-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  let serial = 1;
  return {
    dir,
    async authority(caName) {
      const certPath = join(dir, `${caName}.pem`);
      const keyPath = join(dir, `${caName}.key`);
      await openssl(
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '30',
        '-subj',
        `/CN=${caName}`,
      );
      const ca = await credential(certPath, keyPath);
      return {
        ...ca,
        async issue(
          name,
          { newKey = 'rsa:2048', keyOption, days = 365, digest = 'sha256', usage = 'clientAuth' } = {},
        ) {
          const base = join(dir, name);
          const extensions = `${base}.ext`;
          await writeFile(
            extensions,
            usage === 'serverAuth'
              ? 'extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n'
              : 'extendedKeyUsage=clientAuth\n',
          );
          await openssl(
            'req',
            '-newkey',
            newKey,
            ...(keyOption ? ['-pkeyopt', keyOption] : []),
            '-nodes',
            '-keyout',
            `${base}.key`,
            '-out',
            `${base}.csr`,
            '-subj',
            `/CN=${name}`,
          );
          await openssl(
            'x509',
            '-req',
            '-in',
            `${base}.csr`,
            '-CA',
            certPath,
            '-CAkey',
            keyPath,
            '-set_serial',
            String(serial++),
            '-days',
            String(days),
            `-${digest}`,
            '-extfile',
            extensions,
            '-out',
            `${base}.pem`,
          );
          return credential(`${base}.pem`, `${base}.key`);
        },
      };
    },
  };
}

export interface HttpsAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
  readonly text: string;
}

export interface HttpsOptions {
  /** The client certificate and key to present. */
  readonly client?: Pick<Credential, 'cert' | 'key'>;
  /** The CA the server's certificate is checked against. */
  readonly ca: Buffer;
  readonly headers?: Record<string, string>;
  /** More TLS options: `ciphers: 'DEFAULT:@SECLEVEL=0'` lets the client load a SHA-1 signed certificate. */
  readonly tls?: Pick<https.RequestOptions, 'ciphers' | 'maxVersion'>;
}

/** GET over HTTPS on a new connection: it resolves with the answer, or rejects when the connection fails. */
export function httpsGet(url: string, { client, ca, headers = {}, tls = {} }: HttpsOptions): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { ca, ...client, ...tls, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}
