import { scannerStatusTopic } from '../core/realtime-topics';
import { registerLiveSource } from '../engine/liveSources';

/** A scanner list (`live: "scanners"`) refreshes on each push of its hospitals' scanner status (server/modules/scanners). */
registerLiveSource('scanners', (hospitalIds) => hospitalIds.map(scannerStatusTopic));
