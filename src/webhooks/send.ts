/**
 * One POST of one event to a receiver, over undici: the host's addresses checked before the
 * request and again in the connection's own lookup (destination.ts), no redirect followed, the
 * answer's body read to at most RESPONSE_LIMIT bytes and dropped (never logged: a receiver's
 * error page may hold anything), and a client certificate where the subscription has one.
 */
import { readFileSync } from 'node:fs';
import type { LookupAddress } from 'node:dns';
import type { Agent } from 'undici';
import { whenNeeded } from '../when-needed.ts';
import { type DestinationChecker, RefusedDestination } from './destination.ts';
import { errorFailure, statusFailure, unresolvedFailure } from './failures.ts';

const RESPONSE_LIMIT = 4096;
/** At the first delivery: a service that sends no webhooks (the mock's usual case) never loads it. */
const undici = whenNeeded<typeof import('undici')>('undici');

export interface SendResult {
  /** The receiver's status; absent when no answer came (refused, unreachable, timed out). */
  readonly status?: number;
  /** From `Retry-After` on 429 and 503, in milliseconds. */
  readonly retryAfterMs?: number;
  /** Why it did not count as delivered, in words for the operator (no body). */
  readonly error?: string;
  /** True when the destination was refused (no connection made). */
  readonly refused?: boolean;
}

interface SenderOptions {
  readonly checker: DestinationChecker;
  readonly timeoutMs: number;
  /** Extra CAs (PEM) a receiver's certificate may chain to. */
  readonly ca?: string | Buffer;
}

/** Seconds or an HTTP date, as Retry-After gives them; undefined when neither. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^[0-9]{1,9}$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function createSender(options: SenderOptions) {
  const agents = new Map<string, Agent>();

  function agentFor(url: string, tlsCert?: string, tlsKey?: string): Agent {
    const key = `${url}\n${tlsCert ?? ''}\n${tlsKey ?? ''}`;
    let agent = agents.get(key);
    if (agent) return agent;
    const destination = options.checker.destination(url);
    agent = new (undici().Agent)({
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4000,
      connections: 4,
      connect: {
        timeout: options.timeoutMs,
        ...(options.ca ? { ca: options.ca } : {}),
        ...(tlsCert && tlsKey ? { cert: readFileSync(tlsCert), key: readFileSync(tlsKey) } : {}),
        // The address checked is the one connected to.
        lookup: (_host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          destination.resolve().then(
            (addresses: LookupAddress[]) =>
              lookupOptions.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family),
            (error: Error) => callback(error),
          );
        },
      } as never,
    });
    agents.set(key, agent);
    return agent;
  }

  async function send(
    target: { url: string; tlsCert?: string; tlsKey?: string },
    headers: Record<string, string>,
    body: string,
  ): Promise<SendResult> {
    let destination;
    try {
      destination = options.checker.destination(target.url);
      await destination.resolve();
    } catch (error) {
      if (error instanceof RefusedDestination) return { error: error.message, refused: true };
      return {
        error: unresolvedFailure(
          new URL(target.url).hostname,
          String((error as NodeJS.ErrnoException).code ?? (error as Error).name),
        ),
      };
    }
    try {
      const answer = await undici().request(target.url, {
        method: 'POST',
        dispatcher: agentFor(target.url, target.tlsCert, target.tlsKey),
        headers: { 'content-type': 'application/json', 'user-agent': 'lev-api-webhooks', ...headers },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      let read = 0;
      for await (const chunk of answer.body) {
        read += (chunk as Buffer).length;
        if (read >= RESPONSE_LIMIT) break;
      }
      answer.body.destroy();
      const { statusCode: status } = answer;
      if (status >= 200 && status < 300) return { status };
      if (status >= 300 && status < 400)
        return { status, error: statusFailure(status, Boolean(answer.headers.location)) };
      const after = status === 429 || status === 503 ? retryAfterMs(answer.headers['retry-after']) : undefined;
      return { status, ...(after !== undefined ? { retryAfterMs: after } : {}), error: statusFailure(status) };
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof RefusedDestination) return { error: cause.message, refused: true };
      if (error instanceof RefusedDestination) return { error: error.message, refused: true };
      return { error: errorFailure(error, options.timeoutMs) };
    }
  }

  return {
    send,
    async close() {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
      agents.clear();
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
