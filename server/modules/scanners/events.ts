import type { ScannerStatus } from '../../../src/core/scannerStatus.js';

/** A scanner's state changed (heartbeat, silence, an operator's edit). */
export interface ScannerStatusEvent {
  scannerId: number;
  hospitalId: number;
  status: ScannerStatus;
  /** null when not known (a sweep of silent scanners). */
  previous: ScannerStatus | null;
  at: string;
}

type Listener = (event: ScannerStatusEvent) => void;
const listeners = new Set<Listener>();

/**
 * In-process listeners of scanner state changes. The realtime channel (another module) subscribes here to push
 * changes to open ScannerList / ScannerDetail pages; until then those pages refetch on an interval.
 * Answers the function that unsubscribes.
 */
export function onScannerStatus(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every listener; a listener that throws does not stop the others or the write that caused the change. */
export function emitScannerStatus(event: ScannerStatusEvent): void {
  for (const l of listeners) {
    try {
      l(event);
    } catch {
      // A listener's failure is its own (it logs); the status is already stored.
    }
  }
}
