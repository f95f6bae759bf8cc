/**
 * Caseworkers' sessions: an id in an HttpOnly cookie, the session itself on the server, in memory
 * or in Redis (several UI processes then share them). A session ends when its caseworker signs
 * out or after `idleMs` without a request.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { whenNeeded } from '../when-needed.ts';

const ioredis = whenNeeded<typeof import('ioredis')>('ioredis');
import type { UiSessionConfig } from '../config/sessions.ts';

export interface SessionUser {
  readonly username: string;
  readonly roles: readonly string[];
}

/** A caseworker's tokens from the issuer (OIDC sign-in): the access token is what the API is called with. */
export interface SessionTokens {
  readonly access: string;
  /** When the access token expires (ms since the epoch). */
  readonly expiresAt: number;
  readonly refresh?: string;
  /** Sent back to the issuer at sign-out, so it knows whose session to end. */
  readonly idToken?: string;
}

export interface Session {
  /** Who signed in; undefined before sign-in. */
  readonly user?: SessionUser;
  /** The token of the forms that change the session (sign-in, sign-out). */
  readonly csrf: string;
  /** OIDC sign-in: the caseworker's tokens once signed in. */
  readonly tokens?: SessionTokens;
  /**
   * OIDC sign-in: what the issuer's answer is checked against, between sending the caseworker there and their
   * return.
   */
  readonly pending?: { readonly state: string; readonly nonce: string; readonly verifier: string };
}

export interface SessionStore {
  get(id: string): Promise<Session | undefined>;
  /** Stores the session and restarts its idle time. */
  set(id: string, session: Session): Promise<void>;
  delete(id: string): Promise<void>;
}

export const newSessionId = () => randomBytes(32).toString('base64url');
export const newToken = () => randomBytes(24).toString('base64url');

/** Sessions in this process, each dropped `idleMs` after it was last set. */
export function memorySessions(idleMs: number, now: () => number = Date.now): SessionStore {
  const held = new Map<string, { session: Session; until: number }>();
  const sweep = () => {
    const at = now();
    for (const [id, entry] of held) if (entry.until <= at) held.delete(id);
  };
  return {
    async get(id) {
      const entry = held.get(id);
      if (!entry || entry.until <= now()) return undefined;
      return entry.session;
    },
    async set(id, session) {
      if (held.size > 10_000) sweep();
      held.set(id, { session, until: now() + idleMs });
    },
    async delete(id) {
      held.delete(id);
    },
  };
}

/** Sessions in Redis under `<prefix>ui-session:<id>`, expiring `idleMs` after they were last set. */
function redisSessions(redis: Redis, idleMs: number, prefix: string): SessionStore {
  const key = (id: string) => `${prefix}ui-session:${id}`;
  return {
    async get(id) {
      const text = await redis.get(key(id));
      return text === null ? undefined : (JSON.parse(text) as Session);
    },
    async set(id, session) {
      await redis.set(key(id), JSON.stringify(session), 'PX', idleMs);
    },
    async delete(id) {
      await redis.del(key(id));
    },
  };
}

/**
 * The store the configuration asks for: Redis with REDIS_URL, else this process's memory. While
 * Redis does not answer, pages fail as unavailable (503) rather than forget who is signed in.
 */
export function openSessions(
  config: UiSessionConfig,
  log: FastifyBaseLogger,
): { store: SessionStore; close(): Promise<void> } {
  if (!config.redis) return { store: memorySessions(config.idleMs), close: async () => {} };
  const redis = new (ioredis().Redis)(config.redis.url, {
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
  });
  let ready = false;
  // Each reconnection attempt emits an error; the transitions below say what matters.
  redis.on('error', () => {});
  redis.on('ready', () => {
    ready = true;
    log.info("pages: caseworkers' sessions kept in Redis");
  });
  redis.on('close', () => {
    if (ready) log.warn('pages: the Redis connection is lost; pages fail until it is back');
    ready = false;
  });
  return {
    store: redisSessions(redis, config.idleMs, config.redis.keyPrefix),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
