import type { Language } from '../core/constants';
import { bundle, type Tree } from './mergeBundles';

const cores: Record<Language, () => Promise<{ default: unknown }>> = {
  'zh-CN': () => import('./locales/zh-CN.json'),
  'en-US': () => import('./locales/en-US.json'),
};
const features = import.meta.glob('./locales/*/*.json');

/** The words of one language, core and features, fetched as code chunks: the shell carries neither language. */
export async function loadLanguage(lang: Language): Promise<Tree> {
  const mine = Object.entries(features).filter(([file]) => file.startsWith(`./locales/${lang}/`));
  const [core, ...parts] = await Promise.all([cores[lang](), ...mine.map(([, load]) => load())]);
  return bundle(core!.default as Tree, Object.fromEntries(mine.map(([file], i) => [file, parts[i]])));
}
