import en from '../../i18n/locales/en-US/pages/exams.json';
import zh from '../../i18n/locales/zh-CN/pages/exams.json';
import { addPageWords } from '../../i18n/pageWords';

// The exam page's words come with its chunk (src/i18n/pageWords.ts).
addPageWords({ 'zh-CN': zh, 'en-US': en });
