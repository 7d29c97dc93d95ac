import en from '../i18n/locales/en-US/pages/dicom-viewer.json';
import zh from '../i18n/locales/zh-CN/pages/dicom-viewer.json';
import { addPageWords } from '../i18n/pageWords';

// The DICOM viewer's words come with its chunk (src/i18n/pageWords.ts).
addPageWords({ 'zh-CN': zh, 'en-US': en });
