import en from '../i18n/locales/en-US/pages/meeting.json';
import zh from '../i18n/locales/zh-CN/pages/meeting.json';
import { addPageWords } from '../i18n/pageWords';

/** The meeting pages' words arrive with their chunk (see pageWords.ts). */
addPageWords({ 'zh-CN': zh, 'en-US': en });
