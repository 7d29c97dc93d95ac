/** The viewer's keyboard shortcuts: one list drives both the key handler and the help dialog. */
export type ShortcutAction =
  | 'zoomIn' | 'zoomOut' | 'fit' | 'rotateRight' | 'rotateLeft' | 'flip' | 'pan' | 'select' | 'ruler' | 'rectangle' | 'polygon'
  | 'undo' | 'redo' | 'delete' | 'next' | 'previous' | 'grid' | 'fullscreen' | 'help';

export interface Shortcut { action: ShortcutAction; keys: string; match(e: KeyboardEvent): boolean }

const key = (k: string, mods: { ctrl?: boolean; shift?: boolean } = {}) => (e: KeyboardEvent) =>
  e.key.toLowerCase() === k && !!(e.ctrlKey || e.metaKey) === !!mods.ctrl && (mods.shift === undefined || e.shiftKey === mods.shift);

export const SHORTCUTS: Shortcut[] = [
  { action: 'zoomIn', keys: '+', match: (e) => e.key === '+' || e.key === '=' },
  { action: 'zoomOut', keys: '-', match: (e) => e.key === '-' || e.key === '_' },
  { action: 'fit', keys: '0', match: key('0') },
  { action: 'rotateRight', keys: 'R', match: key('r', { shift: false }) },
  { action: 'rotateLeft', keys: 'Shift+R', match: key('r', { shift: true }) },
  { action: 'flip', keys: 'H', match: key('h') },
  { action: 'pan', keys: 'Esc', match: (e) => e.key === 'Escape' },
  { action: 'select', keys: 'V', match: key('v') },
  { action: 'ruler', keys: 'M', match: key('m') },
  { action: 'rectangle', keys: 'B', match: key('b') },
  { action: 'polygon', keys: 'P', match: key('p', { shift: false }) },
  { action: 'undo', keys: 'Ctrl+Z', match: key('z', { ctrl: true, shift: false }) },
  { action: 'redo', keys: 'Ctrl+Y / Ctrl+Shift+Z', match: (e) => key('y', { ctrl: true })(e) || key('z', { ctrl: true, shift: true })(e) },
  { action: 'delete', keys: 'Delete', match: (e) => e.key === 'Delete' || e.key === 'Backspace' },
  { action: 'next', keys: 'N', match: key('n', { shift: false }) },
  { action: 'previous', keys: 'Shift+N', match: key('n', { shift: true }) },
  { action: 'grid', keys: 'G', match: key('g') },
  { action: 'fullscreen', keys: 'F', match: key('f') },
  { action: 'help', keys: '?', match: (e) => e.key === '?' },
];

/** Keys typed into a field belong to the field. */
export function fromTextField(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}
