import type { Db } from '../../db/connect.js';
import type { Hl7Config } from './config.js';
import { takeMessage } from './inbound.js';
import { startMllpListener, type ListenerOptions, type MllpListener } from './listener.js';

/**
 * The HIS's MLLP listener on `db` (HL7_MLLP_PORT): main.ts starts it in the primary process only, once the setup has
 * migrated, so one process per installation takes the HIS's messages, whatever WORKERS says (a port cannot be
 * shared by several listeners, and a message's dedupe is then one process's sequence of transactions anyway).
 */
export function startHl7Listener(db: Db, cfg: Hl7Config & { listenPort: number }, log: ListenerOptions['log']): Promise<MllpListener> {
  return startMllpListener({
    port: cfg.listenPort, host: cfg.listenHost, maxConnections: cfg.maxConnections, idleTimeoutMs: cfg.idleTimeoutMs, maxMessageBytes: cfg.maxMessageBytes,
    onMessage: (raw) => takeMessage({ db, hospitalCode: cfg.hospitalCode, log }, raw),
    log,
  });
}
