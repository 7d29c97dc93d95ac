import { useSyncExternalStore } from 'react';

/**
 * Whether the realtime channel is up: the broker granted this page's subscriptions, so pushes arrive (client.ts says
 * so). Down until the client has loaded and connected (src/realtime/live.ts loads it lazily), and from a dropped
 * connection until it is back. Pages that rely on pushes poll slowly while it is down, and read again when it comes
 * back, since what was pushed meanwhile never reached them.
 */
let up = false;
const listeners = new Set<(live: boolean) => void>();

export const channelLive = (): boolean => up;

export function setChannelLive(live: boolean): void {
  if (live === up) return;
  up = live;
  for (const l of [...listeners]) l(live);
}

/** Hears each change; answers the function that stops hearing. */
export function onChannelChange(listener: (live: boolean) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useChannelLive(): boolean {
  return useSyncExternalStore(onChannelChange, channelLive, channelLive);
}
