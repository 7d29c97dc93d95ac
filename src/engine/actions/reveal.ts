import { planRequests, revealedValue } from '../../core/actionRequest';
import { registerAction } from './registry';

/**
 * Calls the action's request for one row and shows the `reveal.field` of its answer once, to copy: a value the server
 * keeps no readable copy of (ScannerList's "Issue key": the new API key, stored as its hash). The list is refetched
 * after the dialog closes (the row's key prefix changed).
 */
registerAction('reveal', async (action, rows, { ctx, t, label, ask, notify, reveal }) => {
  const [call] = planRequests(action, rows.slice(0, 1), ctx.rowKey);
  if (!call || !action.reveal) return;
  if (!(await ask(action, rows.slice(0, 1)))) return;
  const answer = await ctx.dataProvider.custom<unknown>({ method: call.method, url: call.url, body: call.body, options: { allowMultiple: true } });
  ctx.refresh();
  const value = revealedValue(answer, action.reveal.field);
  if (value === null) return notify(t('actions.nothingToReveal'), 'error');
  await reveal({
    title: label(action.label),
    label: action.reveal.label ? label(action.reveal.label) : undefined,
    value,
    note: action.reveal.note ? label(action.reveal.note) : undefined,
  });
});
