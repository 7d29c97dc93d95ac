import type { Db } from '../../db/connect.js';
import type { TypedApp } from '../../http/types.js';
import { scannerAdminRoutes } from './admin-routes.js';
import { agentRoutes } from './agent-routes.js';
import { qcDictRoutes } from '../qc/dict-routes.js';
import { qcRoutes } from '../qc/routes.js';
import type { AreaStorages } from '../../storage/area-storages.js';

/**
 * Scanners and slide QC (issue 16): the scanners' own API, their operators' key management, QC grading. The
 * scanners' API has no user: its key is the grant and names the scanner's hospital, so it works on `systemDb`.
 */
export function scannerRoutes(app: TypedApp, db: Db, systemDb: Db, areas: AreaStorages): void {
  agentRoutes(app, systemDb, areas);
  scannerAdminRoutes(app, db);
  qcRoutes(app, db);
  qcDictRoutes(app, db);
}
