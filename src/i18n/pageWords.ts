import i18n from './index';

type Words = Record<string, unknown>;
type Lang = 'zh-CN' | 'en-US';

/**
 * Words only a lazily loaded page uses (`locales/<lang>/pages/<page>.json`): the page's chunk brings them and adds
 * them here when it loads, so the shell's start-up carries none of them. Both languages come with the chunk (a few
 * KB); the one shown is added, and the other when the language changes: a page opened straight from its address
 * loads its chunk at boot (AppRoutes `preloadPageOf`), before the session may switch to the user's own language
 * (issue 31: a case's timeline showed raw keys in en-US). Not both at once: a language holding any bundle counts as
 * loaded for i18next, which would then never fetch its main words.
 */
export function addPageWords(words: Record<Lang, Words>): void {
  const add = (lng: string) => i18n.addResourceBundle(lng === 'en-US' ? 'en-US' : 'zh-CN', 'translation', words[lng === 'en-US' ? 'en-US' : 'zh-CN'], true, false);
  add(i18n.language);
  i18n.on('languageChanged', add);
}
