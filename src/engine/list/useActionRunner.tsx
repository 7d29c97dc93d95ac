import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { verifyLockScreen } from '../../api/auth';
import { notify } from '../../api/notify';
import { patchBody, planRequests, promptValue, type PlannedRequest } from '../../core/actionRequest';
import type { ActionSchema, PromptSchema } from '../../core/pageSchema';
import { useSession } from '../../store/session';
import { useConfirm } from '../../widgets/dialogs/ConfirmDialog';
import { usePasswordConfirm } from '../../widgets/dialogs/PasswordConfirmDialog';
import { useLabel } from '../../widgets/useLabel';
import type { DataProvider, ResourceRef, Row } from '../dataProvider';
import { useActionPrompt } from './ActionPrompt';
import { startDownload } from './startDownload';

export interface ActionContext {
  resource: ResourceRef;
  rowKey: string;
  basePath: string;
  dataProvider: DataProvider;
  openForm(mode: { kind: 'create' } | { kind: 'edit'; id: string }): void;
  refresh(): void;
}

const hasPrompt = (a: ActionSchema): a is ActionSchema & { prompt: PromptSchema } => !!a.prompt;

/**
 * Carries out the page schema's actions: create/edit open the form, detail opens the record,
 * delete asks first (the password box when `passwordConfirm`), patch and request call the server
 * (asking first when the action has `confirm`, and asking for a value when it has `prompt`),
 * download asks the server for a signed link and hands it to the browser. Returns the dialogs to
 * render and `run`.
 */
export function useActionRunner(ctx: ActionContext): [ReactNode, (action: ActionSchema, rows: Row[]) => Promise<void>] {
  const { t } = useTranslation();
  const { label } = useLabel();
  const navigate = useNavigate();
  const userName = useSession((s) => s.user?.name ?? '');
  const [confirmDialog, confirm] = useConfirm();
  const [passwordBox, askPassword] = usePasswordConfirm((password) => verifyLockScreen(userName, password));
  const [promptDialog, askValue] = useActionPrompt();

  const idOf = (row: Row) => row[ctx.rowKey] as string | number;
  const ask = async (action: ActionSchema, rows: Row[], fallback?: string) => {
    const name = label(action.label);
    const message = action.confirm ? label(action.confirm) : fallback;
    if (action.passwordConfirm) return askPassword({ title: name, message: message ?? t('actions.confirmAction', { action: name, count: rows.length }) });
    if (!message) return true;
    return confirm({ title: name, message, danger: action.kind === 'delete' || action.appearance === 'danger' });
  };

  /**
   * Sends `send(value)` with the prompt's answer while the prompt is open (its failures stay in the
   * dialog, so the calls are silent), or at once without a prompt. True when it went through.
   */
  const withValue = async (action: ActionSchema, send: (value: string | null | undefined, silent: boolean) => Promise<void>) => {
    if (!hasPrompt(action)) {
      await send(undefined, false);
      return true;
    }
    let tried = false;
    const sent = await askValue(action, (raw) => {
      tried = true;
      return send(promptValue(raw), true);
    });
    // One request per row: a failed try may have changed some rows before the user gave up; show them as they are.
    if (!sent && tried) ctx.refresh();
    return sent;
  };
  const call = (r: PlannedRequest, silent: boolean) =>
    ctx.dataProvider.custom<Row>({ method: r.method, url: r.url, body: r.body, options: { allowMultiple: true, silent } });

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
        const sent = await withValue(action, async (value, silent) => {
          await Promise.all(rows.map((r) => dp.update(resource, idOf(r), patchBody(action, value), { silent })));
        });
        if (!sent) return;
        notify(t('actions.done', { action: label(action.label) }));
        return ctx.refresh();
      }
      case 'request': {
        if (!action.request) return;
        if (action.request.body === 'ids' && !rows.length) return notify(t('actions.selectFirst'), 'warning');
        if (!(await ask(action, rows))) return;
        const sent = await withValue(action, async (value, silent) => {
          for (const r of planRequests(action, rows, ctx.rowKey, value)) await call(r, silent);
        });
        if (!sent) return;
        notify(t('actions.done', { action: label(action.label) }));
        return ctx.refresh();
      }
      case 'download': {
        if (!rows.length) return notify(t('actions.selectFirst'), 'warning');
        for (const r of planRequests(action, rows, ctx.rowKey)) {
          const link = await dp.custom<{ url?: string }>({ method: r.method, url: r.url });
          if (!link?.url) return notify(t('actions.noDownloadLink'), 'error');
          startDownload(link.url);
        }
        return;
      }
    }
  };

  // Failures were already shown by the API client's toast (spec §8); the action just stops.
  const safeRun = (action: ActionSchema, rows: Row[]) => run(action, rows).catch(() => undefined);
  return [<>{confirmDialog}{passwordBox}{promptDialog}</>, safeRun];
}
