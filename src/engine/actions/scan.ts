import type { Row } from '../dataProvider';
import { registerAction } from './registry';

/**
 * Collects barcode scans in a dialog (ActionScan.tsx: each code with its status) and sends them in one request with
 * the prompt's answer: `{ [prompt.field]: value, [scan.field]: codes, ...request.data }` (slide making in batch).
 */
registerAction('scan', async (action, _rows, { ctx, t, label, scan, notify }) => {
  const req = action.request;
  if (!req || !action.scan) return;
  const field = action.scan.field;
  const sent = await scan(action, async ({ value, codes }) => {
    const body = { ...req.data, ...(action.prompt ? { [action.prompt.field]: value } : {}), [field]: codes };
    await ctx.dataProvider.custom<Row>({ method: req.method, url: req.url, body, options: { allowMultiple: true, silent: true } });
  });
  if (!sent) return;
  notify(t('actions.done', { action: label(action.label) }));
  ctx.refresh();
});
