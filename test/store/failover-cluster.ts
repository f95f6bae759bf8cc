/**
 * What the failover tests share: a movable address (a TCP forwarder standing for a DNS name, a
 * virtual IP or a proxy's target) and a primary with a synchronous standby, migrated and filled.
 */
import { type Socket, connect, createServer } from 'node:net';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { startCluster } from './pg-cluster.ts';

/** A port on 127.0.0.1 forwarding each connection to `port`, until moved to another. */
export async function movableAddress(t: { after(fn: () => unknown): void }, port: number) {
  let target = port;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(socket);
      socket.on('error', () => other.destroy()).on('close', () => (open.delete(socket), other.destroy()));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const socket of open) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `postgres://postgres@127.0.0.1:${(server.address() as { port: number }).port}/postgres`,
    moveTo(next: number) {
      target = next;
    },
  };
}

/**
 * A primary and a synchronous standby (synchronous-audit.test.ts), so that no entry of an answer
 * sent is lost in the crash; migrated, `fill`ed, and replayed by the standby.
 */
export async function migratedCluster(
  t: Parameters<typeof startCluster>[0],
  fill?: (owner: ReturnType<typeof openPostgres>) => Promise<unknown>,
) {
  const cluster = await startCluster(t);
  const {
    primary,
    standbys: [standby],
  } = cluster;
  await primary.query("ALTER SYSTEM SET synchronous_standby_names = 'standby1'");
  await primary.query('SELECT pg_reload_conf()');
  const owner = openPostgres({ url: primary.url, poolSize: 2, statementTimeoutMs: 10_000 });
  await migrate(owner);
  await fill?.(owner);
  await owner.close();
  await cluster.caughtUp();
  return { primary, standby };
}
