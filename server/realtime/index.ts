import type { Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.js';
import type { SessionResolver } from '../http/guard.js';
import type { RealtimeConfig } from './config.js';
import { embeddedHub } from './embedded.js';
import type { RealtimeHub } from './hub.js';
import { rabbitHub } from './rabbitmq.js';

export type { RealtimeHub } from './hub.js';

/** The realtime channel this configuration asks for (see config.ts). */
export function createRealtime(config: RealtimeConfig, server: Server, db: Db, resolveSession: SessionResolver, log?: FastifyBaseLogger): Promise<RealtimeHub> {
  return config.kind === 'embedded'
    ? embeddedHub(server, config.path, resolveSession, config.sweepMs, config.maxConnectionsPerSession, log)
    : rabbitHub(db, config);
}
