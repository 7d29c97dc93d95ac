import { formBody } from '../../core/actionRequest';
import { fillTemplate } from '../../core/actions';
import type { Row } from '../dataProvider';
import { registerAction } from './registry';

/** Asks the action's fields in a dialog and posts them as one request (e.g. the quick registration form). */
registerAction('form', async (action, rows, { ctx, t, label, fill, notify }) => {
  if (!action.request) return;
  const req = action.request;
  const sent = await fill(action, async (values) => {
    await ctx.dataProvider.custom<Row>({ method: req.method, url: fillTemplate(req.url, rows[0] ?? {}), body: formBody(action, values, rows[0]), options: { allowMultiple: true, silent: true } });
  });
  if (!sent) return;
  notify(t('actions.done', { action: label(action.label) }));
  ctx.refresh();
});
