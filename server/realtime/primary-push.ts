import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import type { RealtimeConfig } from './config.js';
import { encodePayload } from './hub.js';
import { publishToWorkers } from './cluster-relay.js';
import { pushJobStates } from './job-push.js';
import { pushScannerStates } from './push.js';

/** What the runner's jobs announce: their states and progress, and the scanners the offline sweep found silent. */
function pushRunnerEvents(jobDb: Db, send: (topic: string, payload: unknown) => void): () => void {
  const offs = [pushJobStates(jobDb, send), pushScannerStates(jobDb, send)];
  return () => { for (const off of offs) off(); };
}

/**
 * The job runner's pushes from a cluster's primary, which runs the jobs but holds no broker and builds no app: on
 * the embedded broker they go to every worker over the cluster's IPC (cluster-relay.ts), whose brokers deliver them;
 * on RabbitMQ the primary publishes itself, as the RABBITMQ_URL user (mqtt.js queues what it is given while it
 * connects and reconnects). Answers the function that stops it.
 */
export async function pushFromPrimary(jobDb: Db, realtime: RealtimeConfig, log: Pick<Logger, 'warn'>): Promise<() => Promise<void>> {
  if (realtime.kind === 'embedded') {
    const stop = pushRunnerEvents(jobDb, (topic, payload) => publishToWorkers(topic, encodePayload(payload)));
    return async () => stop();
  }
  const { default: mqtt } = await import('mqtt');
  const publisher = mqtt.connect(realtime.serverUrl, { clientId: `dsms-primary-${process.pid}-${Date.now().toString(36)}`, reconnectPeriod: 2_000, connectTimeout: 10_000 });
  publisher.on('error', (err) => log.warn({ err }, 'realtime: the primary’s publisher failed'));
  const stop = pushRunnerEvents(jobDb, (topic, payload) => {
    publisher.publishAsync(topic, encodePayload(payload), { qos: 0 }).catch((err: unknown) => log.warn({ err, topic }, 'realtime push failed'));
  });
  return async () => {
    stop();
    await publisher.endAsync(true);
  };
}
