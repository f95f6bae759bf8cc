// The least a Fastify service can start with: Fastify, TypeBox and the two routes that
// `npm run bench:mock-start -- --floor` asks for, answering at once. Plain JavaScript, so that
// nothing but Node and these two packages is loaded.
import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';

const app = Fastify();
const id = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,9}$' }) });
const names = Type.Object({ surname: Type.String(), forenames: Type.String(), dateOfBirth: Type.String() });
app.get('/v1/registration/birth/:id', { schema: { params: id } }, async (request) => ({ id: request.params.id }));
app.get('/v1/registration/birth', { schema: { querystring: names } }, async () => []);
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
