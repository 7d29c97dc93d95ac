import { planRequests } from '../../core/actionRequest';
import { startDownload } from './startDownload';
import { registerAction } from './registry';

/** Asks the server for a signed link per row and hands it to the browser. */
registerAction('download', async (action, rows, { ctx, t, notify }) => {
  if (!rows.length) return notify(t('actions.selectFirst'), 'warning');
  for (const r of planRequests(action, rows, ctx.rowKey)) {
    const link = await ctx.dataProvider.custom<{ url?: string }>({ method: r.method, url: r.url });
    if (!link?.url) return notify(t('actions.noDownloadLink'), 'error');
    startDownload(link.url);
  }
});
