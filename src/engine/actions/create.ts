import { registerAction } from './registry';

/** Opens the list's form drawer, empty. */
registerAction('create', (_a, _rows, { ctx }) => ctx.openForm({ kind: 'create' }));
