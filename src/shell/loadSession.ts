import { fetchMenus, fetchUser } from '../api/auth';
import i18n from '../i18n';
import { useSession } from '../store/session';
import { LOCAL, SESSION } from '../store/storageKeys';

/** Spec §4 "token but no user": load user info and menus; the guard retries the route afterwards. */
export async function loadSession(): Promise<boolean> {
  const userId = Number(sessionStorage.getItem(SESSION.userId));
  if (!userId) return false;
  try {
    const [user, menus] = await Promise.all([fetchUser(userId), fetchMenus()]);
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
