import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../core/constants';
import { normaliseLanguage } from '../core/language';
import { LOCAL } from '../store/storageKeys';
import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  lng: normaliseLanguage(localStorage.getItem(LOCAL.lang)) ?? DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Spec §1: the choice is saved and the page reloads so every module picks the language up. */
export function chooseLanguage(lang: Language): void {
  localStorage.setItem(LOCAL.lang, lang);
  window.location.reload();
}

export default i18n;
