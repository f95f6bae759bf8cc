import type { FastifyInstance } from 'fastify';
import type { RecordStore } from '../store/record-store.ts';
import { serviceUnavailable } from './errors.ts';

export async function healthRoutes(app: FastifyInstance, { store }: { store: RecordStore }) {
  app.get('/healthz', async () => 'OK');
  app.get('/readiness', async () => {
    try {
      await store.ping();
    } catch {
      throw serviceUnavailable('The record store does not answer');
    }
    return 'OK';
  });
}
