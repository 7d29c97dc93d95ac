import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { verifyLockScreen } from '../../api/auth';
import { notify } from '../../api/notify';
import { fillTemplate } from '../../core/actions';
import type { ActionSchema } from '../../core/pageSchema';
import { useSession } from '../../store/session';
import { useConfirm } from '../../widgets/dialogs/ConfirmDialog';
import { usePasswordConfirm } from '../../widgets/dialogs/PasswordConfirmDialog';
import { useLabel } from '../../widgets/useLabel';
import type { DataProvider, ResourceRef, Row } from '../dataProvider';

export interface ActionContext {
  resource: ResourceRef;
  rowKey: string;
  basePath: string;
  dataProvider: DataProvider;
  openForm(mode: { kind: 'create' } | { kind: 'edit'; id: string }): void;
  refresh(): void;
}

/**
 * Carries out the page schema's actions: create/edit open the form, detail opens the record,
 * delete asks first (the password box when `passwordConfirm`), patch and request call the server
 * (asking first when the action has `confirm`). Returns the dialogs to render and `run`.
 */
export function useActionRunner(ctx: ActionContext): [ReactNode, (action: ActionSchema, rows: Row[]) => Promise<void>] {
  const { t } = useTranslation();
  const { label } = useLabel();
  const navigate = useNavigate();
  const userName = useSession((s) => s.user?.name ?? '');
  const [confirmDialog, confirm] = useConfirm();
  const [passwordBox, askPassword] = usePasswordConfirm((password) => verifyLockScreen(userName, password));

  const idOf = (row: Row) => row[ctx.rowKey] as string | number;
  const ask = async (action: ActionSchema, rows: Row[], fallback?: string) => {
    const name = label(action.label);
    const message = action.confirm ? label(action.confirm) : fallback;
    if (action.passwordConfirm) return askPassword({ title: name, message: message ?? t('actions.confirmAction', { action: name, count: rows.length }) });
    if (!message) return true;
    return confirm({ title: name, message, danger: action.kind === 'delete' || action.appearance === 'danger' });
  };

  const run = async (action: ActionSchema, rows: Row[]) => {
    const { dataProvider: dp, resource } = ctx;
    switch (action.kind) {
      case 'create':
        return ctx.openForm({ kind: 'create' });
      case 'edit':
        if (rows[0]) ctx.openForm({ kind: 'edit', id: String(idOf(rows[0])) });
        return;
      case 'detail':
        if (rows[0]) navigate(`${ctx.basePath}/${encodeURIComponent(String(idOf(rows[0])))}`);
        return;
      case 'delete': {
        if (!rows.length) return notify(t('actions.selectFirst'), 'warning');
        if (!(await ask(action, rows, t('actions.confirmDelete', { count: rows.length })))) return;
        await dp.deleteMany(resource, rows.map(idOf));
        notify(t('actions.deleted', { count: rows.length }));
        return ctx.refresh();
      }
      case 'patch': {
        if (!rows.length) return notify(t('actions.selectFirst'), 'warning');
        if (!(await ask(action, rows))) return;
        await Promise.all(rows.map((r) => dp.update(resource, idOf(r), action.patch ?? {})));
        notify(t('actions.done', { action: label(action.label) }));
        return ctx.refresh();
      }
      case 'request': {
        if (!action.request) return;
        const targets = rows.length ? rows : [{}];
        if (!(await ask(action, rows))) return;
        for (const r of targets) await dp.custom({ method: action.request.method, url: fillTemplate(action.request.url, r), config: { allowMultiple: true } });
        notify(t('actions.done', { action: label(action.label) }));
        return ctx.refresh();
      }
    }
  };

  // Failures were already shown by the API client's toast (spec §8); the action just stops.
  const safeRun = (action: ActionSchema, rows: Row[]) => run(action, rows).catch(() => undefined);
  return [<>{confirmDialog}{passwordBox}</>, safeRun];
}
