import en from '../../i18n/locales/en-US/pages/statistics.json';
import zh from '../../i18n/locales/zh-CN/pages/statistics.json';
import { addPageWords } from '../../i18n/pageWords';

// The statistics pages' words come with their chunk (src/i18n/pageWords.ts).
addPageWords({ 'zh-CN': zh, 'en-US': en });
