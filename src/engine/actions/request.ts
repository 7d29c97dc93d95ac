import { planRequests } from '../../core/actionRequest';
import type { Row } from '../dataProvider';
import { registerAction } from './registry';

/** Calls the action's request: once for all rows (`body: "ids"`) or once per row. */
registerAction('request', async (action, rows, { ctx, t, label, ask, withValue, notify }) => {
  if (!action.request) return;
  if (action.request.body === 'ids' && !rows.length) return notify(t('actions.selectFirst'), 'warning');
  if (!(await ask(action, rows))) return;
  const sent = await withValue(action, rows, async (value, silent) => {
    for (const r of planRequests(action, rows, ctx.rowKey, value)) {
      await ctx.dataProvider.custom<Row>({ method: r.method, url: r.url, body: r.body, options: { allowMultiple: true, silent } });
    }
  });
  if (!sent) return;
  notify(t('actions.done', { action: label(action.label) }));
  ctx.refresh();
});
