/**
 * dwv, loaded between the two base-address modules: ES modules run in import order, so dwv runs while the base
 * names its workers' folder (dwv-base-set.ts), and the page's base is back right after (dwv-base-unset.ts).
 * The viewer imports dwv only through here.
 */
import './dwv-base-set';
import { App, AppOptions, Index, ToolConfig, ViewConfig, type ViewController } from 'dwv';
import './dwv-base-unset';

export { App, AppOptions, Index, ToolConfig, ViewConfig, type ViewController };
