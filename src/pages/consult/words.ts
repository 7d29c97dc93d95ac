import en from '../../i18n/locales/en-US/pages/consult.json';
import zh from '../../i18n/locales/zh-CN/pages/consult.json';
import { addPageWords } from '../../i18n/pageWords';

// The consultation words come with the chunks that show them (the expert's page, the opinions panel).
addPageWords({ 'zh-CN': zh, 'en-US': en });
