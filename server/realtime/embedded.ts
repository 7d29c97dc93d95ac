import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { hospitalTopic, mayPublish, maySubscribe, userTopic } from '../../src/core/realtime-topics.js';
import type { SessionResolver } from '../http/guard.js';
import type { SessionUser } from '../http/types.js';
import { workerRelay } from './cluster-relay.js';
import { encodePayload, type RealtimeHub } from './hub.js';

interface Connected { token: string; session: SessionUser }

const MAX_PACKET_BYTES = 256 * 1024;

/**
 * The embedded broker: aedes on the app's own HTTP server at `path` (WebSocket upgrade). A client connects with the
 * session's bearer token as its MQTT password; the same session query as the API decides (revoked, expired,
 * disabled, locked screen: refused). Topics follow src/core/realtime-topics.ts. Every `sweepMs` each connected
 * session is read afresh, so one ended or changed elsewhere (another node, the database) is dropped within it;
 * endSession drops its connections at once. With several cluster workers (WORKERS > 1) each has its broker, joined
 * through the primary (cluster-relay.ts): publishes, retained packets, session ends and re-checks reach them all.
 */
export async function embeddedHub(server: Server, path: string, resolveSession: SessionResolver, sweepMs: number, log?: FastifyBaseLogger): Promise<RealtimeHub> {
  const relay = workerRelay();
  const broker = await Aedes.createBroker({ maxClientsIdLength: 64, drainTimeout: 10_000, ...(relay ? { mq: relay.mq } : {}) });
  const clients = new Map<Client, Connected>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PACKET_BYTES });

  broker.authenticate = (client, _username, password, done) => {
    const token = password?.toString() ?? '';
    if (!token || token.length > 512) return done(Object.assign(new Error('bad credentials'), { returnCode: 4 }), false);
    resolveSession(token).then((session) => {
      if (!session || session.screenLocked) return done(Object.assign(new Error('not authorized'), { returnCode: 5 }), false);
      clients.set(client, { token, session });
      done(null, true);
    }, (error: Error) => done(Object.assign(error, { returnCode: 3 }) as AuthenticateError, false));
  };
  broker.authorizeSubscribe = (client, sub, done) => {
    const who = client && clients.get(client);
    // A refusal is a SUBACK failure (0x80); the connection stays.
    done(null, who && maySubscribe(who.session, sub.topic) ? sub : null);
  };
  broker.authorizePublish = (client, packet, done) => {
    const who = client && clients.get(client);
    done(who && mayPublish(who.session, packet.topic) ? null : new Error('publish refused'));
  };
  // Which process holds a browser's connection (the pid is in every log line).
  broker.on('client', (client) => log?.info({ clientId: client.id, userId: clients.get(client)?.session.id }, 'realtime client connected'));
  broker.on('clientDisconnect', (client) => clients.delete(client));
  broker.on('clientError', (client) => clients.delete(client));

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) return; // another upgrade handler's, or none: Node closes it
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      stream.on('error', () => ws.terminate());
      broker.handle(stream, req);
    });
  };
  server.on('upgrade', onUpgrade);

  const drop = (client: Client) => {
    clients.delete(client);
    client.close();
  };
  const endLocally = (tokenHash: string) => {
    for (const [client, c] of clients) if (c.session.tokenHash === tokenHash) drop(client);
  };
  const sweep = async () => {
    for (const [client, { token, session }] of [...clients]) {
      const now = await resolveSession(token).catch(() => session);
      if (!now || now.screenLocked || now.hospitalIds.join() !== session.hospitalIds.join()) drop(client);
    }
  };
  let sweeping: Promise<void> | undefined;
  const timer = setInterval(() => { sweeping ??= sweep().finally(() => { sweeping = undefined; }); }, sweepMs);
  timer.unref();
  const recheckLocally = (userId: number) => {
    if ([...clients.values()].some((c) => c.session.id === userId)) void sweep();
  };
  // aedes keeps its persistence on the broker (not in its types); retained packets of other workers are stored there.
  const persistence = (broker as unknown as { persistence: { storeRetained(packet: object): Promise<void> } }).persistence;
  await relay?.attach({ storeRetained: (packet) => persistence.storeRetained(packet), endSession: endLocally, recheckUser: recheckLocally },
    (err) => log?.warn({ err }, 'realtime: a packet from another worker could not be delivered'));

  return {
    kind: 'embedded',
    publish: (topic, payload) => new Promise((resolve, reject) => {
      broker.publish({ cmd: 'publish', topic, payload: encodePayload(payload), qos: 0, retain: false, dup: false }, (e) => (e ? reject(e) : resolve()));
    }),
    connection: async (session) => ({
      url: path,
      username: session.name,
      password: null,
      topics: { hospitals: session.hospitalIds.map((h) => hospitalTopic(h, '#')), user: userTopic(session.id, '#') },
    }),
    endSession: (tokenHash) => {
      endLocally(tokenHash);
      relay?.endSession(tokenHash);
    },
    recheckUser: (userId) => {
      recheckLocally(userId);
      relay?.recheckUser(userId);
    },
    close: async () => {
      clearInterval(timer);
      relay?.close();
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
