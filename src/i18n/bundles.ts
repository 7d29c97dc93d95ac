import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';
import { bundle, type Tree } from './mergeBundles';

export { bundle };

/*
 * Both languages, whole and at once: for tests, which compare them and read expected words. The app loads only the
 * language it shows (./loadLanguage.ts): a language change reloads the page, so the other one is never needed.
 */
// Typed as the core file plus any feature's keys, so tests can reach both with dotted access.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- feature files are discovered at build time, their shape is not known here
type Bundle<Core> = Core & Record<string, any>;

export const zhCNBundle = bundle(zhCN as Tree, import.meta.glob('./locales/zh-CN/**/*.json', { eager: true })) as Bundle<typeof zhCN>;
export const enUSBundle = bundle(enUS as Tree, import.meta.glob('./locales/en-US/**/*.json', { eager: true })) as Bundle<typeof enUS>;
