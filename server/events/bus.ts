import type { JobPushState } from '../../src/core/jobPush.js';
import type { ScannerStatus } from '../../src/core/scannerStatus.js';
import type { Db } from '../db/connect.js';

/**
 * In-process domain events: a module that changed something says so here, and whoever cares (the realtime pushes,
 * a test) listens, without the writer knowing them. One bus per database handle, so two apps in one process (tests,
 * a hospital group's nodes) never hear each other's events.
 */
export interface DomainEvents {
  /** A scanner's state changed (heartbeat, silence, an operator's edit). */
  'scanner.status': { scannerId: number; hospitalId: number; status: ScannerStatus; previous: ScannerStatus | null; at: string };
  /** Messages were delivered to these users' inboxes. */
  'messages.sent': { userIds: number[] };
  /**
   * A job was queued and committed (emitted on the handle that committed it): a runner on that handle starts it now.
   * A job about a slide says which (a bind's ingest), so its hospital's pages hear of it (realtime/job-push.ts).
   */
  'jobs.queued': { type: string; jobId?: number; hospitalId?: number; slideId?: number };
  /**
   * A job's state as its runner sees it (jobs/announce.ts): started or a step further (`running`, whole percent),
   * queued again for a retry, done, or failed for good (`error`: its stored reason). Emitted on the runner's handle.
   */
  'jobs.state': { jobId: number; type: string; hospitalId: number | null; slideId: number | null; state: JobPushState; progress: number | null; error?: string };
}

export type EventName = keyof DomainEvents;
type Listener<E extends EventName> = (event: DomainEvents[E]) => void;

const buses = new WeakMap<Db, Map<EventName, Set<Listener<never>>>>();
const roots = new WeakMap<Db, Db>();

/**
 * `derived` is `root`'s database seen through a plugin (the request-scoped handle, http/access-scope.ts): a new
 * Kysely object, but the same database, so the same bus. Without this a message sent or a job queued through a
 * route's handle was heard by nobody listening on the app's handle.
 */
export function shareBus(derived: Db, root: Db): void {
  roots.set(derived, roots.get(root) ?? root);
}

function listenersOf<E extends EventName>(handle: Db, name: E): Set<Listener<E>> {
  const db = roots.get(handle) ?? handle;
  let bus = buses.get(db);
  if (!bus) buses.set(db, (bus = new Map()));
  let set = bus.get(name);
  if (!set) bus.set(name, (set = new Set()));
  return set as unknown as Set<Listener<E>>;
}

/** Listens; answers the function that stops listening. */
export function onEvent<E extends EventName>(db: Db, name: E, listener: Listener<E>): () => void {
  const set = listenersOf(db, name);
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells every listener; one that throws stops neither the others nor the write that caused the event. */
export function emitEvent<E extends EventName>(db: Db, name: E, event: DomainEvents[E]): void {
  for (const l of [...listenersOf(db, name)]) {
    try {
      l(event);
    } catch {
      // A listener's failure is its own (it logs); the change is already stored.
    }
  }
}
