import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Loopback listening for the API tests: the app itself where a client must reach it over a real socket (MQTT over
 * WebSocket), and the stand-ins for the outside systems the app calls (a teaching library, a messaging vendor, a HIS).
 */

export interface Loopback {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Puts a stand-in server on a free loopback port; closing it drops kept-alive connections, so it never waits on one. */
export async function onLoopback(server: http.Server): Promise<Loopback> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A stand-in that answers JSON: `handle` gets the request with its whole body read, `send`, and the response for anything else. */
export function jsonServer(handle: (req: http.IncomingMessage, body: string, send: (status: number, value: unknown) => void, res: http.ServerResponse) => void): http.Server {
  return http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => handle(req, body, (status, value) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    }, res));
  });
}

/** Starts the (ready) app listening on a free loopback port; answers its port. The harness's close() stops it. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}
