import { fillTemplate } from '../../core/actions';
import type { Row } from '../dataProvider';
import { registerAction } from './registry';

/**
 * Quick open: asks the action's fields (a pathology number typed or scanned), looks them up with the request
 * (`/api/pathology/get_id_by_number/{pathology_number}`) and opens `to` filled with the answer (`/diagnosis/{id}`).
 * A miss shows the server's words in the dialog, which stays open for the next try.
 */
registerAction('open', async (action, rows, { ctx, fill, navigate }) => {
  const { request: req, to } = action;
  if (!req || !to?.startsWith('/') || to.startsWith('//')) return;
  let found: Row | null = null;
  const sent = await fill(action, async (values) => {
    const answers = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()]));
    found = await ctx.dataProvider.custom<Row>({ method: req.method, url: fillTemplate(req.url, { ...rows[0], ...answers }), options: { allowMultiple: true, silent: true } });
  });
  if (sent && found) navigate(fillTemplate(to, found));
});
