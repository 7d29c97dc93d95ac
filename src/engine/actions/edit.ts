import { registerAction } from './registry';

/** Opens the list's form drawer on the row. */
registerAction('edit', (_a, rows, { ctx, idOf }) => {
  if (rows[0]) ctx.openForm({ kind: 'edit', id: String(idOf(rows[0])) });
});
