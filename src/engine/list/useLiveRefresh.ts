import { useEffect, useRef } from 'react';
import { coalesce } from '../../core/throttle';
import type { LiveSource } from '../../core/pageSchema';
import { channelLive, onChannelChange } from '../../realtime/channel';
import { connectNow, listen } from '../../realtime/live';
import { useSession } from '../../store/session';
import { liveSource } from '../liveSources';

/** A burst of pushes (a fleet starting up) refetches at most twice a second. */
const PUSH_COALESCE_MS = 500;

export interface LiveRefreshOptions {
  live?: LiveSource;
  refreshSeconds?: number;
  off: boolean;
  refetch(): void;
  /** Changes fields of the row with this key in place, when the source's push says so (a job's step). */
  patch?(key: string, values: Record<string, unknown>): void;
  /** Ask for the channel at once (default), or leave it to load when the user is idle (live.ts). */
  eager?: boolean;
  /**
   * Whether to read again when the channel first comes up after the rows were read (default yes): pushes sent
   * before then were missed. A reconnect always reads again.
   */
  catchUp?(): boolean;
}

/**
 * Keeps a list of live states current: on each push of its source over the realtime channel, a quiet refetch or a
 * row changed in place (the source says which), and on the schema's interval as the fallback when the channel is
 * down; the channel coming back reads the list again. The source's topics are its module's (registerLiveSource).
 * Off while a form is open or in previews.
 */
export function useLiveRefresh(opts: LiveRefreshOptions): void {
  const { live, refreshSeconds, off, refetch, eager = true } = opts;
  const hospitalKey = useSession((s) => (s.user?.hospitals?.data ?? []).map((h) => h.id).join(','));
  const latest = useRef(opts);
  latest.current = opts;

  useEffect(() => {
    if (off || !refreshSeconds) return;
    const timer = setInterval(refetch, refreshSeconds * 1000);
    return () => clearInterval(timer);
  }, [off, refreshSeconds, refetch]);

  useEffect(() => {
    const source = liveSource(live);
    if (off || !source || !hospitalKey) return;
    const pushed = coalesce(refetch, PUSH_COALESCE_MS);
    const onPush = (payload: unknown) => {
      const effect = source.effect?.(payload) ?? { kind: 'refetch' };
      if (effect.kind === 'refetch') pushed();
      else if (effect.kind === 'patch') latest.current.patch?.(effect.key, effect.values);
    };
    // Up since before this list listened: it read its rows meanwhile, so only a later comeback misses anything.
    let wasUp = channelLive();
    const offChannel = onChannelChange((up) => {
      if (up && (wasUp || (latest.current.catchUp?.() ?? true))) pushed();
      if (up) wasUp = true;
    });
    const stops = source.topics(hospitalKey.split(',').map(Number)).map((topic) => listen(topic, onPush, { now: latest.current.eager ?? true }));
    return () => { pushed.cancel(); offChannel(); for (const stop of stops) stop(); };
  }, [off, live, hospitalKey, refetch]);

  // A list that turns eager (work under way appeared) asks for the channel now.
  useEffect(() => {
    if (!off && eager && liveSource(live)) connectNow();
  }, [off, eager, live]);
}
