import { api } from '../../api/client';
import { saveFileAnswer } from '../../api/saveFile';
import { planRequests } from '../../core/actionRequest';
import { resourceUrl } from '../dataProvider';
import { registerAction } from './registry';

/**
 * Asks the server for a file and saves it under the name the server gives (CaseList's .xlsx export): one call,
 * its body the action's fixed data (a POST, so the operation log records who exported what).
 */
registerAction('file', async (action, rows, { ctx, t, label, notify }) => {
  const [call] = planRequests(action, rows.slice(0, 1), ctx.rowKey);
  if (!call) return;
  const res = await api.request({ method: call.method, url: resourceUrl(call.url), data: call.body ?? {}, responseType: 'blob', allowMultiple: true });
  saveFileAnswer(res, label(action.label));
  notify(t('actions.done', { action: label(action.label) }));
});
