/**
 * Caseworkers' sessions: an id in an HttpOnly cookie, the session itself on the server, in memory
 * or in Redis (several UI processes then share them). A session ends when its caseworker signs
 * out or after `idleMs` without a request.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface Session {
  /** Who signed in; undefined before sign-in. */
  readonly user?: { readonly username: string; readonly roles: readonly string[] };
  /** The token of the forms that change the session (sign-in, sign-out). */
  readonly csrf: string;
  /** A message for the next page (e.g. why the caseworker was signed out). */
  readonly notice?: string;
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

/** Sessions in Redis under `lev-ui:session:<id>`, expiring `idleMs` after they were last set. */
export function redisSessions(redis: Redis, idleMs: number): SessionStore {
  const key = (id: string) => `lev-ui:session:${id}`;
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
