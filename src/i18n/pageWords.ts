import i18n from './index';

type Words = Record<string, unknown>;

/**
 * Words only a lazily loaded page uses (`locales/<lang>/pages/<page>.json`): the page's chunk brings them and adds
 * them here when it loads, so the shell's start-up carries none of them. Both languages come with the chunk (a few
 * KB); only the one shown is added.
 */
export function addPageWords(words: Record<'zh-CN' | 'en-US', Words>): void {
  const lang = (i18n.language === 'en-US' ? 'en-US' : 'zh-CN');
  i18n.addResourceBundle(lang, 'translation', words[lang], true, false);
}
