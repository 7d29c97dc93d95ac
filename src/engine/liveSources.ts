import { namedRegistry } from '../core/namedRegistry';

/**
 * The realtime sources a list schema's `live` may name, registered by the module that publishes them (scanners:
 * each hospital's scanner status topic; slide jobs: each hospital's jobs topic): the topics to listen to for the
 * user's hospitals, and what a push means for the rows shown.
 */
export type LiveTopics = (hospitalIds: number[]) => string[];

/** What one push asks of a list: read it again (quietly), change some fields of one row in place, or nothing. */
export type LiveEffect =
  | { kind: 'refetch' }
  | { kind: 'patch'; key: string; values: Record<string, unknown> }
  | { kind: 'none' };

export interface LiveSourceDef {
  topics: LiveTopics;
  /** Unset: every push refetches. */
  effect?: (payload: unknown) => LiveEffect;
  /**
   * The source announces the progress of work under way: while the channel is up, a list showing work need not
   * poll for it (useWorkPolling), and asks for the channel at once rather than when the user is idle.
   */
  carriesWork?: boolean;
}

const sources = namedRegistry<LiveSourceDef>('live source');
export const registerLiveSource = (name: string, topics: LiveTopics, more: Omit<LiveSourceDef, 'topics'> = {}) => sources.register(name, { topics, ...more });
/** A source's definition; none for a name no module registered (the interval fallback still refreshes). */
export const liveSource = (name: string | undefined): LiveSourceDef | undefined => (name ? sources.get(name) : undefined);
export const liveSourceNames = () => sources.names();
