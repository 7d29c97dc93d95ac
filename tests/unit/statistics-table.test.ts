import { createElement as h } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StatAnswer } from '../../src/pages/statistics/api';
import { installStorage } from './storage';

installStorage();

/** The statistics table renders every bucket, every series, the totals and (scan quality) the pass rate, in both languages. */
describe('statistics table', () => {
  let render: (answer: StatAnswer, lang: string) => Promise<string>;
  beforeAll(async () => {
    const [server, fluent, theme, i18n, table] = await Promise.all([
      import('react-dom/server'), import('@fluentui/react-components'), import('../../src/shell/theme'), import('../../src/i18n'),
      import('../../src/pages/statistics/StatTable'),
    ]);
    // The page's chunk adds only the language shown (a language change reloads the app); the test shows both.
    const [zh, en] = await Promise.all([import('../../src/i18n/locales/zh-CN/pages/statistics.json'), import('../../src/i18n/locales/en-US/pages/statistics.json')]);
    i18n.default.addResourceBundle('zh-CN', 'translation', zh.default, true, true);
    i18n.default.addResourceBundle('en-US', 'translation', en.default, true, true);
    render = async (answer, lang) => {
      await i18n.default.changeLanguage(lang);
      const t = i18n.default.t.bind(i18n.default);
      const html = server.renderToString(h(fluent.FluentProvider, { theme: theme.lightTheme }, h(table.StatTable, { answer, seriesLabel: (s: string) => t(`stat.series.${s}`) })));
      return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    };
  });

  const qc: StatAnswer = {
    kind: 'scan_access', range: { from: '2026-05-01', to: '2026-05-02', bucket: 'day' }, series: ['qualified', 'basic', 'unqualified'], target: 95,
    rows: [{ bucket: '2026-05-01', qualified: 2, basic: 1, unqualified: 1 }, { bucket: '2026-05-02', qualified: 0, basic: 0, unqualified: 0 }],
    totals: { qualified: 2, basic: 1, unqualified: 1 },
  };

  it('shows buckets, series, totals and pass rates in zh-CN', async () => {
    const text = await render(qc, 'zh-CN');
    for (const w of ['日期', '合格', '基本合格', '不合格', '合格率', '合计', '2026-05-01', '75%', '—']) expect(text).toContain(w);
  });

  it('shows the same in en-US, and no pass rate for other statistics', async () => {
    const text = await render(qc, 'en-US');
    for (const w of ['Date', 'Qualified', 'Basically qualified', 'Unqualified', 'Pass rate', 'Total', '75%']) expect(text).toContain(w);
    const workload = await render({ ...qc, kind: 'workload', series: ['registered'], rows: [{ bucket: '2026-05-01', registered: 7 }], totals: { registered: 7 } }, 'en-US');
    expect(workload).toContain('Registered');
    expect(workload).not.toContain('Pass rate');
  });
});
