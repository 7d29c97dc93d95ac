import { namedRegistry } from '../core/namedRegistry';

/**
 * The realtime sources a list schema's `live` may name, registered by the module that publishes them (scanners:
 * each hospital's scanner status topic): the topics to listen to for the user's hospitals.
 */
export type LiveTopics = (hospitalIds: number[]) => string[];

const sources = namedRegistry<LiveTopics>('live source');
export const registerLiveSource = (name: string, topics: LiveTopics) => sources.register(name, topics);
/** The topics of a source; none for a name no module registered (the interval fallback still refreshes). */
export const liveTopics = (name: string, hospitalIds: number[]): string[] => sources.get(name)?.(hospitalIds) ?? [];
export const liveSourceNames = () => sources.names();
