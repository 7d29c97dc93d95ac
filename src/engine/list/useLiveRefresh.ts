import { useEffect } from 'react';
import { coalesce } from '../../core/throttle';
import type { LiveSource } from '../../core/pageSchema';
import { listen } from '../../realtime/live';
import { useSession } from '../../store/session';
import { liveTopics } from '../liveSources';

/** A burst of pushes (a fleet starting up) refetches at most twice a second. */
const PUSH_COALESCE_MS = 500;

/**
 * Keeps a list of live states current: a quiet refetch on each push of its source over the realtime channel, and on
 * the schema's interval as the fallback when the channel is down. The source's topics are its module's
 * (registerLiveSource). Off while a form is open or in previews.
 */
export function useLiveRefresh(opts: { live?: LiveSource; refreshSeconds?: number; off: boolean; refetch(): void }): void {
  const { live, refreshSeconds, off, refetch } = opts;
  const hospitalKey = useSession((s) => (s.user?.hospitals?.data ?? []).map((h) => h.id).join(','));

  useEffect(() => {
    if (off || !refreshSeconds) return;
    const timer = setInterval(refetch, refreshSeconds * 1000);
    return () => clearInterval(timer);
  }, [off, refreshSeconds, refetch]);

  useEffect(() => {
    if (off || !live || !hospitalKey) return;
    const pushed = coalesce(refetch, PUSH_COALESCE_MS);
    const stops = liveTopics(live, hospitalKey.split(',').map(Number)).map((topic) => listen(topic, () => pushed(), { now: true }));
    return () => { pushed.cancel(); for (const stop of stops) stop(); };
  }, [off, live, hospitalKey, refetch]);
}
