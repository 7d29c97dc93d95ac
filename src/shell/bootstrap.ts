import i18n, { i18nReady } from '../i18n';
import { fetchCommitHash, fetchPublicSettings } from '../api/auth';
import { pickLanguage } from '../core/language';
import { useSettings } from '../store/settings';
import { LOCAL } from '../store/storageKeys';

/**
 * App start of spec §4: compare the build hash with the stored one (a new build clears the stored
 * language and reloads so no stale chunk is used); else load public settings and set the language.
 * Returns false when the page is about to reload.
 */
export async function bootstrap(): Promise<boolean> {
  // Both at once: the settings answer is only wasted when a new build reloads the page.
  const publicSettings = fetchPublicSettings().catch(() => ({}));
  const hash = await fetchCommitHash().catch(() => null);
  const stored = localStorage.getItem(LOCAL.commitHash);
  if (hash && stored && hash !== stored) {
    localStorage.setItem(LOCAL.commitHash, hash);
    localStorage.removeItem(LOCAL.lang);
    window.location.reload();
    return false;
  }
  if (hash) localStorage.setItem(LOCAL.commitHash, hash);

  const settings = await publicSettings;
  useSettings.getState().set(settings);
  const lang = pickLanguage(localStorage.getItem(LOCAL.lang), (settings as { lang?: string }).lang, navigator.languages ?? [navigator.language]);
  await i18nReady;
  if (i18n.language !== lang) await i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
  return true;
}
