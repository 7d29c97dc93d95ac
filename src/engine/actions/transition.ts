import { formBody, patchBody } from '../../core/actionRequest';
import { splitTransition } from '../../core/stateMachine';
import type { Row } from '../dataProvider';
import { registerAction } from './registry';

/**
 * Takes a step of the resource's state machine (`"transition": "<set>.<step>"`, src/core/stateMachine.ts) on each row:
 * POST <route>/transition/{id} with the prompt's answer or the dialog's `fields`. Shown only where the rule file lets
 * the user take it (actionVisible), and the server checks the same again.
 */
registerAction('transition', async (action, rows, { ctx, t, label, idOf, ask, withValue, fill, notify }) => {
  const step = splitTransition(action.transition);
  if (!step) return;
  if (!rows.length) return notify(t('actions.selectFirst'), 'warning');
  const send = (body: Row, silent: boolean) => Promise.all(rows.map((r) => ctx.dataProvider.custom<Row>({
    method: 'POST', url: `${ctx.resource.route}/transition/${idOf(r)}`, body: { ...body, transition: step.name }, options: { allowMultiple: true, silent },
  })));
  let sent: boolean;
  if (action.fields?.length) {
    sent = await fill(action, async (values) => { await send(formBody(action, values), true); });
  } else {
    if (!(await ask(action, rows))) return;
    sent = await withValue(action, rows, async (value, silent) => { await send(patchBody(action, value), silent); });
  }
  if (!sent) return;
  notify(t('actions.done', { action: label(action.label) }));
  ctx.refresh();
});
