/**
 * dwv, loaded between the two base-address modules: ES modules run in import order, so dwv runs while the base
 * names its workers' folder (dwv-base-set.ts), and the page's base is back right after (dwv-base-unset.ts).
 * The viewer imports dwv only through here.
 */
import './dwv-base-set';
import { App, AppOptions, i18n as dwvWords, Index, ToolConfig, ViewConfig, type ViewController } from 'dwv';
import './dwv-base-unset';
import i18n from '../i18n';

// The units dwv writes beside its drawings (`unit.mm` …) in the reader's language; dwv asks nothing else of it.
Object.assign(dwvWords, {
  t: (key: string) => (key.startsWith('unit.') ? i18n.t(`dicom.${key}`, { defaultValue: key.slice('unit.'.length) }) : key),
});

export { App, AppOptions, Index, ToolConfig, ViewConfig, type ViewController };
