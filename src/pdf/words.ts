import en from '../i18n/locales/en-US/pages/pdf.json';
import zh from '../i18n/locales/zh-CN/pages/pdf.json';
import { addPageWords } from '../i18n/pageWords';

// This page's words come with its chunk (src/i18n/pageWords.ts).
addPageWords({ 'zh-CN': zh, 'en-US': en });
