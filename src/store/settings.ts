import { create } from 'zustand';

export interface PublicSettings {
  lang?: string | null;
  hospital_logo?: string | null;
  dingding_login_app_id?: string | null;
  lock_screen_minutes?: number | string | null;
  [key: string]: unknown;
}

/** Public settings from the server, loaded at app start before login. */
export const useSettings = create<{ settings: PublicSettings; set(s: PublicSettings): void }>((set) => ({
  settings: {},
  set: (settings) => set({ settings }),
}));
