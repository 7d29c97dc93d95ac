import { api } from '../../api/client';
import { planRequests } from '../../core/actionRequest';
import { registerAction } from './registry';

/**
 * Asks the server for one PDF of the chosen rows (a batch print of their reports) and hands it to the browser as a
 * download named by the action's label, to open and print. A refusal (a report not issued, another hospital's
 * row) is the server's translated message, as for any call; the list then shows what the call recorded.
 */
registerAction('pdf', async (action, rows, { ctx, t, label, ask, notify }) => {
  if (!action.request) return;
  if (action.request.body === 'ids' && !rows.length) return notify(t('actions.selectFirst'), 'warning');
  if (!(await ask(action, rows))) return;
  for (const r of planRequests(action, rows, ctx.rowKey)) {
    const { data } = await api.request<Blob>({ method: r.method, url: r.url.replace(/^\/api/, ''), data: r.body, responseType: 'blob' });
    const url = URL.createObjectURL(new Blob([data], { type: 'application/pdf' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${label(action.label)}.pdf`;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    // The download has taken the bytes once the click is handled.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
  notify(t('actions.done', { action: label(action.label) }));
  ctx.refresh();
});
