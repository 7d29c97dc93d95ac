import type { Db } from '../../db/connect.js';
import type { TypedApp } from '../../http/types.js';
import { scannerAdminRoutes } from './admin-routes.js';
import { agentRoutes } from './agent-routes.js';
import { qcDictRoutes } from '../qc/dict-routes.js';
import { qcRoutes } from '../qc/routes.js';

/** Scanners and slide QC (issue 16): the scanners' own API, their operators' key management, QC grading. */
export function scannerRoutes(app: TypedApp, db: Db, dataDir: string): void {
  agentRoutes(app, db, dataDir);
  scannerAdminRoutes(app, db);
  qcRoutes(app, db);
  qcDictRoutes(app, db);
}
