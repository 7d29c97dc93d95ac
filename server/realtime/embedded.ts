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
import { SessionConnections } from './session-connections.js';

/**
 * `id`: the connection's own, unique across workers (an MQTT client id is the client's choice). `filters`: what it
 * subscribed to, counted as each is authorized (one SUBSCRIBE packet's filters are authorized all at once).
 */
interface Connected { token: string; session: SessionUser; id: string; filters: Set<string> }

/**
 * What one connection may hold in this process. A packet (the WebSocket frame carrying it) is at most
 * MAX_PACKET_BYTES; before its session is established a client may queue QUEUE_LIMIT packets; it may have
 * MAX_INFLIGHT_INBOUND QoS 2 publishes awaiting PUBREL, and MAX_SUBSCRIPTIONS topic filters (the browser uses a
 * handful). Subscriptions are granted QoS 0 and sessions are clean, so the broker keeps no per-client queue of
 * unacknowledged or offline messages at all; a client that stops reading is dropped after DRAIN_TIMEOUT_MS.
 */
const MAX_PACKET_BYTES = 256 * 1024;
const QUEUE_LIMIT = 16;
const MAX_INFLIGHT_INBOUND = 16;
const MAX_SUBSCRIPTIONS = 32;
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * The embedded broker: aedes on the app's own HTTP server at `path` (WebSocket upgrade). A client connects with the
 * session's bearer token as its MQTT password; the same session query as the API decides (revoked, expired,
 * disabled, locked screen: refused). Topics follow src/core/realtime-topics.ts. Every `sweepMs` each connected
 * session is read afresh, so one ended or changed elsewhere (another node, the database) is dropped within it;
 * endSession drops its connections at once. With several cluster workers (WORKERS > 1) each has its broker, joined
 * through the primary (cluster-relay.ts): publishes, retained packets, session ends and re-checks reach them all.
 * Only the server retains: a client's publish is delivered with its retain flag cleared (its will too), so nothing
 * a client sends outlives it. A session holds at most `maxConnectionsPerSession` connections, its oldest closed past
 * that (session-connections.ts; counted by the primary over all workers, else here).
 */
export async function embeddedHub(server: Server, path: string, resolveSession: SessionResolver, sweepMs: number, maxConnectionsPerSession: number, log?: FastifyBaseLogger): Promise<RealtimeHub> {
  const relay = workerRelay();
  const broker = await Aedes.createBroker({
    maxClientsIdLength: 64, drainTimeout: DRAIN_TIMEOUT_MS, queueLimit: QUEUE_LIMIT, maxInflightInbound: MAX_INFLIGHT_INBOUND,
    ...(relay ? { mq: relay.mq } : {}),
  });
  const clients = new Map<Client, Connected>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PACKET_BYTES });
  const byId = new Map<string, Client>();
  let serial = 0;
  // Without a relay this process holds every connection and counts them itself.
  const ledger = relay ? undefined : new SessionConnections<null>(maxConnectionsPerSession);

  const opened = (client: Client, c: Connected) => {
    clients.set(client, c);
    byId.set(c.id, client);
    // aedes says nothing of a client whose socket closes before it is registered: the socket itself does.
    (client.conn as NodeJS.EventEmitter).once('close', () => forget(client));
    if (relay) relay.opened(c.session.tokenHash, c.id);
    else for (const over of ledger!.opened(c.session.tokenHash, c.id, null)) closeConnection(over.id);
  };
  const forget = (client: Client) => {
    const c = clients.get(client);
    if (!c) return;
    clients.delete(client);
    byId.delete(c.id);
    if (relay) relay.closed(c.id);
    else ledger!.closed(c.id);
  };
  const drop = (client: Client) => {
    forget(client);
    client.close();
  };
  const closeConnection = (id: string) => {
    const client = byId.get(id);
    if (!client) return;
    log?.info({ clientId: client.id, userId: clients.get(client)?.session.id, max: maxConnectionsPerSession }, 'realtime: a session\'s oldest connection closed, past its limit');
    drop(client);
  };

  // A persistent session would keep the client's subscriptions, and messages for them, after it leaves.
  broker.preConnect = (_client, packet, done) => {
    packet.clean = true;
    done(null, true);
  };
  broker.authenticate = (client, _username, password, done) => {
    const token = password?.toString() ?? '';
    if (!token || token.length > 512) return done(Object.assign(new Error('bad credentials'), { returnCode: 4 }), false);
    resolveSession(token).then((session) => {
      if (!session || session.screenLocked) return done(Object.assign(new Error('not authorized'), { returnCode: 5 }), false);
      opened(client, { token, session, id: `${process.pid}-${++serial}`, filters: new Set() });
      done(null, true);
    }, (error: Error) => done(Object.assign(error, { returnCode: 3 }) as AuthenticateError, false));
  };
  broker.authorizeSubscribe = (client, sub, done) => {
    const who = client && clients.get(client);
    // A refusal is a SUBACK failure (0x80); the connection stays. QoS 0: nothing is kept for an unacknowledged delivery.
    if (!who || !maySubscribe(who.session, sub.topic) || (!who.filters.has(sub.topic) && who.filters.size >= MAX_SUBSCRIPTIONS)) return done(null, null);
    who.filters.add(sub.topic);
    done(null, { ...sub, qos: 0 });
  };
  broker.on('unsubscribe', (filters, client) => {
    const who = clients.get(client);
    for (const f of filters) who?.filters.delete(f);
  });
  broker.authorizePublish = (client, packet, done) => {
    const who = client && clients.get(client);
    if (!who || !mayPublish(who.session, packet.topic)) return done(new Error('publish refused'));
    packet.retain = false;
    done(null);
  };
  // Which process holds a browser's connection (the pid is in every log line).
  broker.on('client', (client) => log?.info({ clientId: client.id, userId: clients.get(client)?.session.id }, 'realtime client connected'));
  broker.on('clientDisconnect', forget);
  broker.on('clientError', forget);

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) return; // another upgrade handler's, or none: Node closes it
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      stream.on('error', () => ws.terminate());
      broker.handle(stream, req);
    });
  };
  server.on('upgrade', onUpgrade);

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
  await relay?.attach({ storeRetained: (packet) => persistence.storeRetained(packet), endSession: endLocally, recheckUser: recheckLocally, closeConnection },
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
