import { fetchMenus, fetchUser } from '../api/auth';
import { useSession } from '../store/session';
import { SESSION } from '../store/storageKeys';

/** Spec §4 "token but no user": load user info and menus; the guard retries the route afterwards. */
export async function loadSession(): Promise<boolean> {
  const userId = Number(sessionStorage.getItem(SESSION.userId));
  if (!userId) return false;
  try {
    const [user, menus] = await Promise.all([fetchUser(userId), fetchMenus()]);
    useSession.getState().setUser(user, menus);
    return true;
  } catch {
    return false;
  }
}
