import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../core/constants';
import { normaliseLanguage } from '../core/language';
import { LOCAL, SESSION } from '../store/storageKeys';
import { loadLanguage } from './loadLanguage';

/** Words come as a code chunk of the language shown (see loadLanguage.ts). */
const chunks: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, done) {
    loadLanguage(language as Language).then((words) => done(null, words), (error: Error) => done(error, false));
  },
};

/** Resolves once the first language's words are here; bootstrap waits for it before anything is drawn. */
export const i18nReady = i18n.use(chunks).use(initReactI18next).init({
  lng: normaliseLanguage(localStorage.getItem(LOCAL.lang)) ?? DEFAULT_LANGUAGE,
  // Both languages hold every key (locales.test.ts), so nothing falls back and only one language is fetched.
  fallbackLng: false,
  load: 'currentOnly',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  // The splash draws before the words arrive; it asks `ready` instead of suspending.
  react: { useSuspense: false },
});

/** Spec §1: the choice is saved and the page reloads so every module picks the language up. */
export function chooseLanguage(lang: Language): void {
  localStorage.setItem(LOCAL.lang, lang);
  // Signed in: the choice is the user's too (spec §7 transform_language), so their other browsers follow it.
  const token = sessionStorage.getItem(SESSION.token);
  const saved = token
    ? fetch(`/api/system_management/users/transform_language?lang=${lang}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, keepalive: true }).catch(() => undefined)
    : Promise.resolve();
  void Promise.race([saved, new Promise((r) => setTimeout(r, 1500))]).then(() => window.location.reload());
}

export default i18n;
