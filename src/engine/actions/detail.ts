import { registerAction } from './registry';

/** Opens the row's record page (`<list>/<id>`). */
registerAction('detail', (_a, rows, { ctx, idOf, navigate }) => {
  if (rows[0]) navigate(`${ctx.basePath}/${encodeURIComponent(String(idOf(rows[0])))}`);
});
