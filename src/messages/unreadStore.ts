import { create } from 'zustand';
import { fetchUnread, type Message } from './messagesApi';

/** How often the header asks for unread messages while no push arrives (the realtime channel can call `refresh`). */
export const UNREAD_POLL_MS = 30_000;

interface UnreadState {
  count: number;
  latest: Message[];
  /** Asks the server again; a failure keeps what was shown (a badge is no reason for an error toast). */
  refresh(): Promise<void>;
  /** What a mark-as-read or delete answered, without another round trip. */
  setCount(count: number): void;
}

export const useUnread = create<UnreadState>((set) => ({
  count: 0,
  latest: [],
  async refresh() {
    try {
      const { count, data } = await fetchUnread();
      set({ count, latest: data });
    } catch { /* offline or signed out: the next poll tries again */ }
  },
  setCount(count) { set((s) => ({ count, latest: count === 0 ? [] : s.latest })); },
}));
