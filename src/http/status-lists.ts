/**
 * The token status lists as this process serves them: each list read from the store at most once a
 * STATUS_LIST_REUSE_MS however many ask, and signed again only when its entries changed or its
 * signature is a ttl old (encoding and signing 131,072 entries holds the process for about 10 ms).
 *
 * A list signed within the last STATUS_LIST_REUSE_MS is a body every caller gets alike: public, no
 * caller to identify, audit or limit. `answerEarly` answers it before Fastify routes the request,
 * with the headers the route gives it (a test holds the two equal), and logs the same line. It
 * leaves to the route whatever is not such a hit: another method or path, a list not yet signed or
 * due to be read again, a client certificate the on-boarding rules refuse. This is what lets relying
 * parties poll a list at the speed of a cached body (docs/credentials.md, docs/performance.md).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { presentedCertificate } from '../auth/client-certificate.ts';
import type { IssuerKey } from '../credentials/keys.ts';
import { STATUS_LIST_TYPE, statusListPath, statusListToken } from '../credentials/status-list.ts';
import type { DocumentSigner } from '../credentials/mdoc-certificates.ts';
import { STATUS_LIST_CWT_TYPE, statusListCwt } from '../credentials/status-list-cwt.ts';
import type { CredentialStatuses } from '../model/credentials.ts';
import { securityHeaders } from './headers.ts';
import { logRequestLine } from './plugins/request-log.ts';
import type { EarlyAnswer } from './transport.ts';

/**
 * How long a process reuses a status list it signed: revocations show within this, and serving one is a
 * cached body.
 */
export const STATUS_LIST_REUSE_MS = 1000;

/** The route's pattern, as logged; its list parameter as the route's schema allows it. */
export const STATUS_LIST_ROUTE = statusListPath(':list');
const STATUS_LIST_URL = new RegExp(`^${STATUS_LIST_ROUTE.replace(':list', '([1-9][0-9]{0,8})')}$`);

/** A status list as last signed: its invalid entries (ascending), when, and the token. */
interface Listed {
  readonly invalid: readonly number[];
  readonly signedAt: number;
  readonly token: string;
}

interface Signing {
  /** When the store was last read for it. */
  readonly at: number;
  readonly listed: Promise<Listed | undefined>;
  /** The token, once `listed` has it. */
  token?: string;
}

const sameEntries = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((idx, i) => idx === b[i]);

interface StatusListOptions {
  readonly statuses: CredentialStatuses;
  readonly key: () => IssuerKey;
  readonly ttlS: number;
  /** How a store's failure reaches the route (its 503). */
  readonly storeUnavailable: <T>(read: () => Promise<T>) => Promise<T>;
}

export interface StatusLists {
  /** The list's token, signed now or reused; undefined when no credential is in that list. */
  token(list: number, issuer: string): Promise<string | undefined>;
  /** The headers of a list's 200, but the request ids and the length. */
  readonly headers: Readonly<Record<string, string>>;
  /** Answers a request for a list signed within STATUS_LIST_REUSE_MS, or leaves it to the route (false). */
  answerEarly(options: {
    readonly issuer: () => string;
    readonly tls: boolean;
    readonly log: FastifyBaseLogger;
  }): EarlyAnswer;
}

export function statusLists({ statuses, key, ttlS, storeUnavailable }: StatusListOptions): StatusLists {
  const signed = new Map<string, Signing>();
  const relist = async (
    list: number,
    iss: string,
    now: number,
    previous: Listed | undefined,
  ): Promise<Listed | undefined> => {
    const entries = await storeUnavailable(() => statuses.invalid(list));
    if (entries === undefined) return undefined;
    const invalid = [...entries].sort((a, b) => a - b);
    if (previous && now - previous.signedAt < ttlS * 1000 && sameEntries(previous.invalid, invalid)) return previous;
    return { invalid, signedAt: now, token: await statusListToken(key(), iss, list, invalid, ttlS, now) };
  };
  const keyOf = (list: number, iss: string) => `${list} ${iss}`;
  // Vary: a cache keeps the JWT and the CWT form (content negotiation, cwtStatusList) apart.
  const headers = {
    'cache-control': `public, max-age=${ttlS}`,
    'access-control-allow-origin': '*',
    'content-type': STATUS_LIST_TYPE,
    vary: 'accept',
  };

  return {
    headers,
    async token(list, iss) {
      const key = keyOf(list, iss);
      const now = Date.now();
      let found = signed.get(key);
      if (!found || now - found.at >= STATUS_LIST_REUSE_MS) {
        const previous = found?.listed.catch(() => undefined);
        const listed = (previous ?? Promise.resolve(undefined)).then((last) => relist(list, iss, now, last));
        const signing: Signing = { at: now, listed };
        found = signing;
        signed.set(key, signing);
        // A failure is not kept for the next caller.
        listed.then(
          (done) => (signing.token = done?.token),
          () => signed.get(key) === signing && signed.delete(key),
        );
        if (signed.size > 1000) signed.delete(signed.keys().next().value as string);
      }
      return (await found.listed)?.token;
    },
    answerEarly({ issuer, tls, log }) {
      return (request: IncomingMessage, response: ServerResponse) => {
        if (request.method !== 'GET') return false;
        // The CWT form is the route's to answer.
        if (request.headers.accept?.includes(STATUS_LIST_CWT_TYPE)) return false;
        const list = STATUS_LIST_URL.exec(request.url as string)?.[1];
        if (list === undefined) return false;
        const found = signed.get(keyOf(Number(list), issuer()));
        if (found?.token === undefined || Date.now() - found.at >= STATUS_LIST_REUSE_MS) return false;
        // The route refuses such a caller, as every route does.
        if (presentedCertificate(request.socket)?.problem) return false;
        const started = performance.now();
        const id = randomUUID();
        response.writeHead(200, {
          'x-request-id': id,
          'request-id': id,
          ...securityHeaders(request.url as string, tls),
          ...headers,
          'content-length': Buffer.byteLength(found.token),
        });
        response.end(found.token);
        logRequestLine(log, id, {
          route: STATUS_LIST_ROUTE,
          method: 'GET',
          status: 200,
          ms: performance.now() - started,
        });
        return true;
      };
    },
  };
}

/**
 * A status list in its CWT form (status-list-cwt.ts), for a request that asks for it
 * (`Accept: application/statuslist+cwt`): read and signed on each request, since mdoc verifiers ask
 * for it far less often than the JWT form is polled; undefined when no credential is in that list.
 */
export function cwtStatusList({
  statuses,
  signer,
  ttlS,
  storeUnavailable,
}: Omit<StatusListOptions, 'key'> & { readonly signer: () => Promise<DocumentSigner> }) {
  return async (list: number, issuer: string): Promise<Uint8Array | undefined> => {
    const invalid = await storeUnavailable(() => statuses.invalid(list));
    return invalid === undefined ? undefined : statusListCwt(await signer(), issuer, list, invalid, ttlS);
  };
}
