/** Scanner states and scan results of spec §9, and how silence turns a scanner offline (issue 16). */
export const SCANNER_STATUSES = ['idle', 'offline', 'working', 'preview', 'error', 'init'] as const;
export type ScannerStatus = (typeof SCANNER_STATUSES)[number];
export const SCAN_RESULTS = ['not_scanned', 'preview_success', 'scanned', 'scan_failed', 'no_slide'] as const;
export type ScanResult = (typeof SCAN_RESULTS)[number];

/** A scanner heard from less than this long ago is what it last said; after, it is offline. */
export const OFFLINE_AFTER_MS = 60_000;

/** What a scanner is at `now`: its last reported state, or offline once its heartbeat is older than OFFLINE_AFTER_MS. */
export function effectiveStatus(status: ScannerStatus, heartbeatAt: string | null, now: number): ScannerStatus {
  if (!heartbeatAt) return 'offline';
  const at = Date.parse(heartbeatAt);
  return Number.isFinite(at) && now - at < OFFLINE_AFTER_MS ? status : 'offline';
}

/** The ISO time before which a heartbeat means offline. */
export const offlineCutoff = (now: number): string => new Date(now - OFFLINE_AFTER_MS).toISOString();

/** A scan's duration in ms from its ISO start and end, null when either is missing or they are out of order. */
export function scanDuration(startedAt: string | null, finishedAt: string | null): number | null {
  if (!startedAt || !finishedAt) return null;
  const d = Date.parse(finishedAt) - Date.parse(startedAt);
  return Number.isFinite(d) && d >= 0 ? d : null;
}
