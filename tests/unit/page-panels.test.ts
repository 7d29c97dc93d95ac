import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';
import { installStorage } from './storage';

/**
 * The engine's page panels (src/engine/panels): a page names hand-written panels; a known one is drawn (its chunk
 * loading behind a spinner), an unknown name shows a visible error panel in the page's language instead of a crash.
 */
describe('page panels', () => {
  it('draws the panels a page names and an error panel for an unknown name, in both languages', async () => {
    installStorage();
    const [{ renderToString }, fluent, theme, i18n, registry] = await Promise.all([
      import('react-dom/server'), import('@fluentui/react-components'), import('../../src/shell/theme'), import('../../src/i18n'),
      import('../../src/engine/panels/registry'),
    ]);
    expect(registry.panelNames()).toContain('securityKeys');
    const draw = (names: string[]) => renderToString(h(fluent.FluentProvider, { theme: theme.lightTheme }, h(registry.PagePanels, { names })));
    expect(draw([])).not.toMatch(/engine-error|fui-Spinner/);
    for (const [lang, title] of [['zh-CN', '未知的页面面板：nope'], ['en-US', 'Unknown page panel: nope']] as const) {
      await i18n.default.changeLanguage(lang);
      const html = draw(['securityKeys', 'nope']);
      expect(html).toContain(title);
      expect(html.match(/data-testid="engine-error"/g)).toHaveLength(1);
      // The known panel's chunk is still loading: its place holds a spinner.
      expect(html).toMatch(/fui-Spinner/);
    }
  }, 120_000);
});
