/**
 * Who holds the server's MAX_CONNECTIONS places, so that connections doing nothing cannot keep
 * everyone else out.
 *
 * - A connection must send its first request within HEADERS_TIMEOUT_S of opening (over TLS, finish
 *   its handshake within it, then send its request within it again). Node's own header deadline
 *   only starts with the first byte, so a connection that never sends one would stay for ever.
 * - Once every place is taken, a new connection is still accepted, but only on probation: if its
 *   request arrives within PROBATION_MS, the connection that has been idle longest (no request in
 *   progress: silent since it opened, or waiting between requests) is closed to make room for it;
 *   if not, it is closed. Holding every place with silent sockets therefore shuts nobody out: each
 *   client that sends a request takes the place of one of them. Only when every place has a request
 *   in progress is a new request turned away (503).
 * - The operator's paths (/healthz, /readiness, /metrics) are answered whatever the connection
 *   count: when every place has a request in progress, such a request takes one of
 *   RESERVED_PLACES places beyond MAX_CONNECTIONS, kept for them alone, so a liveness probe never
 *   restarts a service that is merely busy.
 * - Probation itself is bounded: at most MAX_CONNECTIONS connections are on probation at once (a
 *   new one closes the oldest), each for PROBATION_MS at most. So a client is shut out only by
 *   someone opening MAX_CONNECTIONS connections in the moment between its connecting and its
 *   request, not by anyone merely holding connections open.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Long enough for a client that connected to send its request (over TLS, after its handshake). */
const PROBATION_MS = 500;

/** Places beyond MAX_CONNECTIONS for the operator's paths, when every other place is busy. */
const RESERVED_PLACES = 4;

/** The paths a probe or a scraper calls: answered whatever the connection count. */
const OPERATIONAL_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readiness', '/metrics']);

const operational = (request: IncomingMessage) => OPERATIONAL_PATHS.has((request.url ?? '').split('?')[0]);

interface Slot {
  /** The socket the requests arrive on: the TCP socket, or over TLS the TLS socket over it. */
  http?: Socket;
  readonly tcp: Socket;
  /** Requests received and not yet answered. */
  busy: number;
  spoken: boolean;
  probation?: NodeJS.Timeout;
}

interface ConnectionSlots {
  /**
   * Called with every request before it is handled: false when no place could be made for it (every
   * place has a request in progress), and the request must be refused.
   */
  admit(request: IncomingMessage, response: ServerResponse): boolean;
}

export function guardConnections(
  server: Server,
  { maxConnections, headersTimeoutMs }: { maxConnections: number; headersTimeoutMs: number },
  secure: boolean,
): ConnectionSlots {
  // The connections holding a place, in the order they last became idle: the first idle one is the
  // one idle longest.
  const placed = new Map<Socket, Slot>();
  const waiting = new Map<Socket, Slot>();

  const slotOf = (socket: Socket): Slot | undefined => {
    // Over TLS the requests arrive on a TLS socket whose `_parent` is the TCP socket accepted.
    const tcp = secure ? ((socket as Socket & { _parent?: Socket })._parent ?? socket) : socket;
    return placed.get(tcp) ?? waiting.get(tcp);
  };

  // The silent-connection deadline, on the socket the requests arrive on; cleared by the first request.
  const startDeadline = (socket: Socket) => socket.setTimeout(headersTimeoutMs);

  server.on('connection', (tcp: Socket) => {
    const slot: Slot = { tcp, busy: 0, spoken: false };
    if (placed.size < maxConnections) placed.set(tcp, slot);
    else {
      const oldest = waiting.size >= maxConnections ? waiting.keys().next().value : undefined;
      if (oldest) {
        waiting.delete(oldest);
        oldest.destroy();
      }
      waiting.set(tcp, slot);
      slot.probation = setTimeout(() => tcp.destroy(), PROBATION_MS).unref();
    }
    tcp.once('close', () => {
      clearTimeout(slot.probation);
      placed.delete(tcp);
      waiting.delete(tcp);
    });
    if (!secure) {
      slot.http = tcp;
      startDeadline(tcp);
    }
  });
  if (secure) {
    server.on('secureConnection', (socket: Socket) => {
      const slot = slotOf(socket);
      if (slot) slot.http = socket;
      startDeadline(socket);
    });
  }

  /** Closes the connection idle longest; false if every one has a request in progress. */
  const evictIdlest = (): boolean => {
    for (const slot of placed.values()) {
      if (slot.busy > 0) continue;
      placed.delete(slot.tcp);
      (slot.http ?? slot.tcp).destroy();
      return true;
    }
    return false;
  };

  return {
    admit(request, response) {
      const slot = slotOf(request.socket);
      if (!slot) return true;
      if (!slot.spoken) {
        slot.spoken = true;
        request.socket.setTimeout(0);
      }
      if (slot.probation) {
        clearTimeout(slot.probation);
        slot.probation = undefined;
        waiting.delete(slot.tcp);
        if (placed.size >= maxConnections && !evictIdlest()) {
          if (!(operational(request) && placed.size < maxConnections + RESERVED_PLACES)) return false;
          // A reserved place serves this one request: the connection closes after it, so no other request rides on it.
          response.shouldKeepAlive = false;
        }
        placed.set(slot.tcp, slot);
      }
      slot.busy++;
      response.once('close', () => {
        if (--slot.busy > 0 || !placed.has(slot.tcp)) return;
        // Idle from now: to the back of the order.
        placed.delete(slot.tcp);
        placed.set(slot.tcp, slot);
      });
      return true;
    },
  };
}
