import en from '../../i18n/locales/en-US/pages/security-keys.json';
import zh from '../../i18n/locales/zh-CN/pages/security-keys.json';
import { addPageWords } from '../../i18n/pageWords';

// These words come with the security keys' chunks (src/i18n/pageWords.ts).
addPageWords({ 'zh-CN': zh, 'en-US': en });
