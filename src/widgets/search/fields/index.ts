/** The search widgets: importing this registers them all (registry.ts). One line per file. */
import './text';
import './number';
import './date';
import './choice';

export { registerSearchWidget, resolveSearchWidget, searchWidgets, type SearchInputProps } from './registry';
