import { create } from 'zustand';
import type { MenuEntry } from '../core/menuRules';
import { LOCAL, SESSION } from './storageKeys';

export interface Hospital { id: number; code: string; name: string; en_name: string; logo: string | null }
export interface UserInfo {
  id: number;
  name: string;
  realname: string;
  hospitals: { data: Hospital[] };
  current_hospital_id: number | null;
  hospital_logo: string | null;
  identification: string[];
  permission: string[];
  roles: { id: number; name: string; en_name?: string | null; identification: string; extra: string[] }[];
  /** The language the user chose last (transform_language), on any browser; null when never chosen. */
  lang?: 'zh-CN' | 'en-US' | null;
}

interface SessionState {
  token: string | null;
  user: UserInfo | null;
  menus: MenuEntry[];
  hospitalId: number | null;
  showAllData: boolean;
  locked: boolean;
  lockedPath: string | null;
  setToken(token: string, userId?: number): void;
  setUser(user: UserInfo, menus: MenuEntry[]): void;
  setHospital(id: number): void;
  setShowAllData(on: boolean): void;
  lock(path: string): void;
  unlock(): void;
  clear(): void;
}

/** The signed-in session. The token lives in session storage (spec §3); the lock flag in local storage so it survives reload. */
export const useSession = create<SessionState>((set) => ({
  token: sessionStorage.getItem(SESSION.token),
  user: null,
  menus: [],
  hospitalId: Number(localStorage.getItem(LOCAL.hospital)) || null,
  showAllData: sessionStorage.getItem(SESSION.showAllData) === 'true',
  locked: localStorage.getItem(LOCAL.locked) === 'true',
  lockedPath: localStorage.getItem(LOCAL.lockedPath),
  setToken(token, userId) {
    sessionStorage.setItem(SESSION.token, token);
    sessionStorage.setItem(SESSION.loginTime, new Date().toISOString());
    if (userId) sessionStorage.setItem(SESSION.userId, String(userId));
    set({ token, user: null, menus: [] });
  },
  setUser(user, menus) {
    sessionStorage.setItem(SESSION.userId, String(user.id));
    sessionStorage.setItem(SESSION.identification, JSON.stringify(user.identification));
    sessionStorage.setItem(SESSION.permission, JSON.stringify(user.permission));
    localStorage.setItem(LOCAL.username, user.name);
    if (user.current_hospital_id) localStorage.setItem(LOCAL.hospital, String(user.current_hospital_id));
    set({ user, menus, hospitalId: user.current_hospital_id });
  },
  setHospital(id) {
    localStorage.setItem(LOCAL.hospital, String(id));
    set({ hospitalId: id });
  },
  setShowAllData(on) {
    sessionStorage.setItem(SESSION.showAllData, String(on));
    set({ showAllData: on });
  },
  lock(path) {
    localStorage.setItem(LOCAL.locked, 'true');
    localStorage.setItem(LOCAL.lockedPath, path);
    set({ locked: true, lockedPath: path });
  },
  unlock() {
    localStorage.removeItem(LOCAL.locked);
    localStorage.removeItem(LOCAL.lockedPath);
    set({ locked: false, lockedPath: null });
  },
  clear() {
    for (const key of Object.values(SESSION)) sessionStorage.removeItem(key);
    localStorage.removeItem(LOCAL.locked);
    localStorage.removeItem(LOCAL.lockedPath);
    set({ token: null, user: null, menus: [], locked: false, lockedPath: null });
  },
}));
