import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/**
 * A handler that may answer a request before Fastify sees it: true when it has answered, false to pass the
 * request on untouched. For hot read paths only, where everything needed is already in memory (tiles);
 * it must not await, throw or log — the Fastify route behind it does all of that.
 */
export type FastLane = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Fastify's serverFactory with lanes in front of its router. Lanes are added after the app is built (the
 * routes that own them create their state), so the list is read per request. The server gets the same
 * timeouts Fastify gives the servers it makes itself.
 */
export function serverWithFastLanes(lanes: readonly FastLane[]): FastifyServerFactory {
  return (handler, fastifyOptions) => {
    // Fastify has filled in its defaults by now; its types leave them loose.
    const options = fastifyOptions as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number; maxRequestsPerSocket?: number };
    const server = http.createServer((req, res) => {
      for (const lane of lanes) if (lane(req, res)) return;
      handler(req, res);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
