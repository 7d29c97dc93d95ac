import { fetchMenus, fetchUser } from '../api/auth';
import i18n from '../i18n';
import { useSession } from '../store/session';
import { LOCAL, SESSION } from '../store/storageKeys';

const fetchSession = (userId: number) => Promise.all([fetchUser(userId), fetchMenus()]);
let early: { userId: number; session: ReturnType<typeof fetchSession> } | null = null;

/**
 * A signed-in tab starting (a reload, a link, a new tab): the user's information and menus are asked for at boot,
 * beside the build check and the public settings, rather than after them and the first render of the routes
 * (scripts/bench/viewer.ts prints that chain). Only when this browser's language is already chosen, as the
 * calls carry it, the screen is not locked and no outside sign-in is in the address; loadSession takes the answers.
 */
export function startSessionEarly(): void {
  const { token, user, locked } = useSession.getState();
  const userId = Number(sessionStorage.getItem(SESSION.userId));
  // An outside sign-in in the address replaces the token first (RouteGuard): nothing to ask ahead for then.
  const query = new URLSearchParams(window.location.search);
  if (query.has('code') || query.has('stoken')) return;
  if (early || !token || user || locked || !userId || !localStorage.getItem(LOCAL.lang)) return;
  early = { userId, session: fetchSession(userId) };
  early.session.catch(() => {});
}

/** Spec §4 "token but no user": load user info and menus; the guard retries the route afterwards. */
export async function loadSession(): Promise<boolean> {
  const userId = Number(sessionStorage.getItem(SESSION.userId));
  const ahead = early?.userId === userId ? early.session : null;
  early = null;
  if (!userId) return false;
  try {
    const [user, menus] = await (ahead ?? fetchSession(userId));
    // A browser that never chose a language follows the user's own (transform_language): once, then it is this
    // browser's choice too. A browser's own choice stays (two people may share an account's screen).
    if (user.lang && !localStorage.getItem(LOCAL.lang) && user.lang !== i18n.language) {
      localStorage.setItem(LOCAL.lang, user.lang);
      window.location.reload();
      // Nothing more to do here: the page is going away (a false would send the guard to the login page).
      return new Promise<boolean>(() => {});
    }
    useSession.getState().setUser(user, menus);
    return true;
  } catch {
    return false;
  }
}
