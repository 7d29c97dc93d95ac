import { useEffect } from 'react';

/**
 * Spec §2: the PDF page blocks printing and the context menu (where the hospital's setting says so). Ctrl/⌘+P and
 * Ctrl/⌘+S are swallowed, the context menu does not open, and a print started from the browser's menu prints a blank
 * page. A deterrent against casual copies, not protection against a determined user (a screenshot still works).
 */
export function usePdfProtection(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    const noMenu = (e: Event) => e.preventDefault();
    const noKeys = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && ['p', 's'].includes(e.key.toLowerCase())) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    const blank = document.createElement('style');
    blank.textContent = '@media print { body { display: none !important; } }';
    document.head.append(blank);
    document.addEventListener('contextmenu', noMenu, true);
    window.addEventListener('keydown', noKeys, true);
    return () => {
      blank.remove();
      document.removeEventListener('contextmenu', noMenu, true);
      window.removeEventListener('keydown', noKeys, true);
    };
  }, [on]);
}
