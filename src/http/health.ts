import type { FastifyInstance } from 'fastify';
import type { RecordReader } from '../types/store.ts';
import { serviceUnavailable } from '../errors.ts';

export async function healthRoutes(app: FastifyInstance, { store }: { store: Pick<RecordReader, 'ready'> }) {
  app.get('/healthz', async () => 'OK');
  app.get('/readiness', async () => {
    try {
      await store.ready();
    } catch {
      throw serviceUnavailable('The record store does not answer');
    }
    return 'OK';
  });
}
