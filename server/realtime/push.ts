import type { FastifyBaseLogger } from 'fastify';
import { messagesTopic, scannerStatusTopic } from '../../src/core/realtime-topics.js';
import type { Db } from '../db/connect.js';
import { onEvent } from '../events/bus.js';
import type { RealtimeHub } from './hub.js';
import { pushJobStates } from './job-push.js';

/**
 * Domain events the browser should see at once, pushed over the realtime channel: a scanner's new state to its
 * hospital, "new messages" to each recipient, a job's state and progress to its hospital (job-push.ts). The payload
 * is a hint, not the data: pages refetch through the API, which checks permissions as always (a job's push carries
 * ids and a percentage only). Answers the function that stops the pushes.
 */
export function pushDomainEvents(db: Db, hub: RealtimeHub, log: FastifyBaseLogger): () => void {
  const send = (topic: string, payload: unknown) => {
    hub.publish(topic, payload).catch((e: unknown) => log.warn({ err: e, topic }, 'realtime push failed'));
  };
  const offs = [
    pushScannerStates(db, send),
    onEvent(db, 'messages.sent', (e) => { for (const id of new Set(e.userIds)) send(messagesTopic(id), { unread: true }); }),
    pushJobStates(db, send),
  ];
  return () => { for (const off of offs) off(); };
}

/**
 * A scanner's new state to its hospital: from a heartbeat (the app) or the offline sweep (a scheduled job, so also
 * from a cluster's primary: primary-push.ts). Answers the function that stops it.
 */
export function pushScannerStates(db: Db, send: (topic: string, payload: unknown) => void): () => void {
  return onEvent(db, 'scanner.status', (e) => send(scannerStatusTopic(e.hospitalId), { scannerId: e.scannerId, status: e.status, at: e.at }));
}
