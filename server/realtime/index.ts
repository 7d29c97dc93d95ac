import type { Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.js';
import type { SessionResolver } from '../http/guard.js';
import type { RealtimeConfig } from './config.js';
import type { RealtimeHub } from './hub.js';

export type { RealtimeHub } from './hub.js';

/**
 * The realtime channel this configuration asks for (see config.ts). Each backend is loaded only when asked for:
 * the MQTT client RabbitMQ needs is a quarter of a second of a worker's start that the embedded broker never uses.
 */
export async function createRealtime(config: RealtimeConfig, server: Server, db: Db, resolveSession: SessionResolver, log?: FastifyBaseLogger): Promise<RealtimeHub> {
  if (config.kind === 'embedded') {
    const { embeddedHub } = await import('./embedded.js');
    return embeddedHub(server, config.path, resolveSession, config.sweepMs, config.maxConnectionsPerSession, log);
  }
  const { rabbitHub } = await import('./rabbitmq.js');
  return rabbitHub(db, config);
}
