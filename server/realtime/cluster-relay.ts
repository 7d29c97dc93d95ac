import cluster, { type Worker } from 'node:cluster';
import mqemitter, { type MQEmitter } from 'mqemitter';
import { RetainedStore } from './retained-store.js';
import { SessionConnections } from './session-connections.js';

/**
 * The embedded broker across node:cluster workers (WORKERS > 1 on one machine). Each worker's aedes delivers through
 * an mq that emits locally and also sends the packet to the primary, which forwards it to every other worker, which
 * emits it locally only: every subscriber receives every publish, whichever worker it and the sender landed on.
 * Retained packets from another worker are stored here too, and the primary keeps them for a worker that starts
 * later (one replaced after a crash), within RETAINED_LIMITS. Session ends (logout, lock) and user re-checks travel
 * the same way, so every worker drops the connections at once. The primary also counts each session's connections
 * over all workers (session-connections.ts) and tells the worker holding the oldest one to close it when a session
 * holds more than its limit. Plain JSON over the cluster's IPC channel, payloads as base64; MQTT 5 properties are
 * not carried (the browser and the server speak 3.1.1).
 */

/**
 * Set by the primary on the workers it forks (superviseWorkers): only then is there a primary that relays. A flag
 * between the processes of one start, not a setting: settings are read in config.ts only.
 */
export const RELAY_ENV = 'DSMS_REALTIME_RELAY';

/** A publish packet as it crosses the IPC channel. */
interface WirePacket {
  cmd: string;
  topic: string;
  /** base64 */
  payload: string;
  qos: number;
  retain: boolean;
  dup: boolean;
  /** aedes's per-broker id and counter: its QoS deduplication compares them. */
  brokerId?: string;
  brokerCounter?: number;
  clientId?: string;
}

type RelayMessage =
  | { dsmsRealtime: 'publish'; packet: WirePacket }
  | { dsmsRealtime: 'endSession'; tokenHash: string }
  | { dsmsRealtime: 'recheckUser'; userId: number }
  /** A worker's broker is up: the primary answers with the retained packets it knows. */
  | { dsmsRealtime: 'hello' }
  | { dsmsRealtime: 'retained'; packets: WirePacket[] }
  /** A worker took (or lost) a connection of a session (its token hash); the primary counts them all. */
  | { dsmsRealtime: 'opened'; session: string; id: string }
  | { dsmsRealtime: 'closed'; id: string }
  /** The primary to the worker holding it: this connection is its session's oldest past the limit. */
  | { dsmsRealtime: 'closeConnection'; id: string };

/** What the primary keeps of retained packets for workers started later; the oldest go first past either. */
export const RETAINED_LIMITS = { packets: 1000, bytes: 8 * 1024 * 1024 } as const;

const isRelayMessage = (m: unknown): m is RelayMessage =>
  typeof m === 'object' && m !== null && typeof (m as { dsmsRealtime?: unknown }).dsmsRealtime === 'string';

type Packet = Omit<WirePacket, 'payload'> & { payload: Buffer };

const toWire = (p: Packet): WirePacket => ({
  cmd: p.cmd, topic: p.topic, payload: Buffer.from(p.payload ?? []).toString('base64'), qos: p.qos, retain: p.retain, dup: p.dup,
  brokerId: p.brokerId, brokerCounter: p.brokerCounter, clientId: p.clientId,
});
const fromWire = (w: WirePacket): Packet => ({ ...w, payload: Buffer.from(w.payload, 'base64') });

/** What the relay does with the other workers' news in this worker. */
export interface LocalBroker {
  storeRetained(packet: Packet): Promise<void>;
  endSession(tokenHash: string): void;
  recheckUser(userId: number): void;
  /** Closes this worker's connection `id` (its session holds too many). */
  closeConnection(id: string): void;
}

export interface WorkerRelay {
  /** aedes's `mq` option. */
  mq: MQEmitter;
  /**
   * Starts taking the other workers' packets and session ends, once the broker exists. Resolves when the retained
   * packets the primary keeps are stored here too, so that this worker serves with them.
   */
  attach(local: LocalBroker, onError: (error: unknown) => void): Promise<void>;
  /** Tells the other workers (this one handles its own). */
  endSession(tokenHash: string): void;
  recheckUser(userId: number): void;
  /** Tells the primary, which counts the session's connections on every worker. */
  opened(session: string, id: string): void;
  closed(id: string): void;
  close(): void;
}

const ignore = () => undefined;

/** This worker's relay; undefined outside a relaying cluster (WORKERS=1, tests in one process): nothing changes there. */
export function workerRelay(): WorkerRelay | undefined {
  if (!cluster.isWorker || process.env[RELAY_ENV] !== '1' || !process.send) return undefined;
  const toPrimary = (m: RelayMessage) => {
    // A worker that is stopping may have lost its channel already: its news no longer matter.
    if (process.connected) process.send!(m, undefined, undefined, ignore);
  };
  // The same emitter aedes makes by default, with emit also going to the other workers.
  const mq = mqemitter({ concurrency: 100, matchEmptyLevels: true });
  const emitLocally = mq.emit.bind(mq);
  mq.emit = (packet, callback) => {
    toPrimary({ dsmsRealtime: 'publish', packet: toWire(packet as Packet) });
    emitLocally(packet, callback);
  };

  let onMessage: ((m: unknown) => void) | undefined;
  let loaded: () => void = ignore;
  return {
    mq,
    attach(local, onError) {
      // In arrival order: a retained packet is stored before it (and anything after it) is delivered.
      let queue = Promise.resolve();
      const later = (step: () => Promise<void> | void) => { queue = queue.then(step).catch(onError); };
      const retainedLoaded = new Promise<void>((resolve) => { loaded = resolve; });
      onMessage = (m) => {
        if (!isRelayMessage(m)) return;
        if (m.dsmsRealtime === 'publish') {
          const packet = fromWire(m.packet);
          later(async () => {
            if (packet.retain) await local.storeRetained(packet);
            emitLocally(packet);
          });
        } else if (m.dsmsRealtime === 'retained') {
          for (const w of m.packets) later(() => local.storeRetained(fromWire(w)));
          later(loaded);
        } else if (m.dsmsRealtime === 'endSession') {
          local.endSession(m.tokenHash);
        } else if (m.dsmsRealtime === 'recheckUser') {
          local.recheckUser(m.userId);
        } else if (m.dsmsRealtime === 'closeConnection') {
          local.closeConnection(m.id);
        }
      };
      process.on('message', onMessage);
      // The primary gone, no answer comes (and this worker stops).
      process.once('disconnect', loaded);
      toPrimary({ dsmsRealtime: 'hello' });
      return retainedLoaded;
    },
    endSession: (tokenHash) => toPrimary({ dsmsRealtime: 'endSession', tokenHash }),
    recheckUser: (userId) => toPrimary({ dsmsRealtime: 'recheckUser', userId }),
    opened: (session, id) => toPrimary({ dsmsRealtime: 'opened', session, id }),
    closed: (id) => toPrimary({ dsmsRealtime: 'closed', id }),
    close() {
      if (onMessage) process.off('message', onMessage);
      process.off('disconnect', loaded);
    },
  };
}

/**
 * A publish of the primary's own (the job runner's pushes: the primary holds no broker), sent to every worker, whose
 * broker delivers it to its clients as it does another worker's (QoS 0, not retained).
 */
export function publishToWorkers(topic: string, payload: Buffer): void {
  const packet: WirePacket = { cmd: 'publish', topic, payload: payload.toString('base64'), qos: 0, retain: false, dup: false };
  for (const worker of Object.values(cluster.workers ?? {})) {
    if (worker?.isConnected()) worker.send({ dsmsRealtime: 'publish', packet } satisfies RelayMessage, ignore);
  }
}

/**
 * The primary's side: forwards each worker's relay messages to every other worker, keeps the retained packets (the
 * last per topic; an empty payload clears it) for workers that start later, and holds every session to
 * `maxConnectionsPerSession` connections over all workers. Answers the function that stops it.
 */
export function relayBetweenWorkers({ maxConnectionsPerSession }: { maxConnectionsPerSession: number }): () => void {
  const retained = new RetainedStore<WirePacket>(RETAINED_LIMITS.packets, RETAINED_LIMITS.bytes);
  const connections = new SessionConnections<Worker>(maxConnectionsPerSession);
  const send = (to: Worker, m: RelayMessage) => { if (to.isConnected()) to.send(m, ignore); };
  const onMessage = (from: Worker, m: unknown) => {
    if (!isRelayMessage(m)) return;
    switch (m.dsmsRealtime) {
      case 'hello':
        send(from, { dsmsRealtime: 'retained', packets: retained.values() });
        return;
      case 'opened':
        for (const over of connections.opened(m.session, m.id, from)) send(over.holder, { dsmsRealtime: 'closeConnection', id: over.id });
        return;
      case 'closed':
        connections.closed(m.id);
        return;
      case 'retained':
      case 'closeConnection':
        return;
      case 'publish':
        if (m.packet.retain) retained.set(m.packet.topic, m.packet);
    }
    for (const worker of Object.values(cluster.workers ?? {})) if (worker && worker !== from) send(worker, m);
  };
  // A worker that died took its connections with it (its replacement starts with none).
  const onExit = (worker: Worker) => connections.dropHolder(worker);
  cluster.on('message', onMessage);
  cluster.on('exit', onExit);
  return () => {
    cluster.off('message', onMessage);
    cluster.off('exit', onExit);
  };
}
