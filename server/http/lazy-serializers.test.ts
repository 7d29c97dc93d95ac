import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySerializers } from './lazy-serializers.js';

const app = () => Fastify({ schemaController: { compilersFactory: { buildSerializer: lazySerializers } } });
const declared = { 200: { type: 'object', properties: { code: { type: 'integer' }, data: { type: 'string' } } } };

describe('lazy response serializers', () => {
  it('serialise as fastify does: by the declared schema, per status', async () => {
    const server = app();
    server.get('/a', { schema: { response: declared } }, async () => ({ code: 0, data: 'x', undeclared: 'dropped' }));
    const answer = await server.inject('/a');
    expect(answer.json()).toEqual({ code: 0, data: 'x' });
    // Again, from the compiled serializer.
    expect((await server.inject('/a')).json()).toEqual({ code: 0, data: 'x' });
    await server.close();
  });

  it('compile a route’s schema at its first answer, not at start', async () => {
    const server = app();
    // fast-json-stringify refuses this schema when it compiles it: the app still starts, the route's answer fails.
    server.get('/broken', { schema: { response: { 200: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } } } }, async () => ({ a: 1 }));
    server.get('/fine', { schema: { response: declared } }, async () => ({ code: 1, data: 'y' }));
    await server.ready();
    expect((await server.inject('/fine')).json()).toEqual({ code: 1, data: 'y' });
    expect((await server.inject('/broken')).statusCode).toBe(500);
    await server.close();
  });
});
