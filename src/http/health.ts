import type { FastifyInstance } from 'fastify';
import type { RecordReader } from '../model/store.ts';
import { serviceUnavailable } from '../errors.ts';
import { UNREADABLE, errorResponse, operationsRoute } from './documentation.ts';

export async function healthRoutes(app: FastifyInstance, { store }: { store: Pick<RecordReader, 'ready'> }) {
  app.get('/healthz', { schema: operationsRoute('Liveness: the process is running') }, async () => 'OK');
  const readiness = operationsRoute('Readiness: the record store answers');
  app.get(
    '/readiness',
    {
      schema: {
        ...readiness,
        response: { 200: { description: 'Ready', type: 'null' }, 400: UNREADABLE, 503: errorResponse('Not ready') },
      },
    },
    async () => {
      try {
        await store.ready();
      } catch {
        throw serviceUnavailable('The record store does not answer');
      }
      return 'OK';
    },
  );
}
