import { patchBody } from '../../core/actionRequest';
import { registerAction } from './registry';

/** Updates each row with the action's fixed fields and the prompt's answer (PATCH update/{id}). */
registerAction('patch', async (action, rows, { ctx, t, label, idOf, ask, withValue, notify }) => {
  if (!rows.length) return notify(t('actions.selectFirst'), 'warning');
  if (!(await ask(action, rows))) return;
  const sent = await withValue(action, rows, async (value, silent) => {
    await Promise.all(rows.map((r) => ctx.dataProvider.update(ctx.resource, idOf(r), patchBody(action, value), { silent })));
  });
  if (!sent) return;
  notify(t('actions.done', { action: label(action.label) }));
  ctx.refresh();
});
