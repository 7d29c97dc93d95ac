import { registerAction } from './registry';

/** Deletes the rows after asking (the password box with `passwordConfirm`, spec §5). */
registerAction('delete', async (action, rows, { ctx, t, idOf, ask, notify }) => {
  if (!rows.length) return notify(t('actions.selectFirst'), 'warning');
  if (!(await ask(action, rows, t('actions.confirmDelete', { count: rows.length })))) return;
  await ctx.dataProvider.deleteMany(ctx.resource, rows.map(idOf));
  notify(t('actions.deleted', { count: rows.length }));
  ctx.refresh();
});
