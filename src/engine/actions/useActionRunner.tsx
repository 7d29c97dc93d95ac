import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { verifyLockScreen } from '../../api/auth';
import { notify } from '../../api/notify';
import { promptDefault, promptValue, type PromptAnswer } from '../../core/actionRequest';
import type { ActionSchema, PromptSchema } from '../../core/pageSchema';
import { useSession } from '../../store/session';
import { useConfirm } from '../../widgets/dialogs/ConfirmDialog';
import { usePasswordConfirm } from '../../widgets/dialogs/PasswordConfirmDialog';
import { useReveal } from '../../widgets/dialogs/RevealDialog';
import { useLabel } from '../../widgets/useLabel';
import { resolveAction, type ActionContext } from './index';
import type { Row } from '../dataProvider';
import { useActionPrompt } from './ActionPrompt';
import { useActionForm } from './ActionForm';
import { useActionScan } from './ActionScan';

export type { ActionContext } from './registry';

const hasPrompt = (a: ActionSchema): a is ActionSchema & { prompt: PromptSchema } => !!a.prompt;

/**
 * Carries out the page schema's actions through the action-kind registry (src/engine/actions: one file per
 * kind), giving each the dialogs it may need: a confirmation (the password box when `passwordConfirm`), a
 * prompt for a value, a form, and the once-only display of a value the server answered. Returns the dialogs to render and `run`.
 */
export function useActionRunner(ctx: ActionContext): [ReactNode, (action: ActionSchema, rows: Row[]) => Promise<void>] {
  const { t } = useTranslation();
  const { label } = useLabel();
  const navigate = useNavigate();
  const userName = useSession((s) => s.user?.name ?? '');
  const [confirmDialog, confirm] = useConfirm();
  const [passwordBox, askPassword] = usePasswordConfirm((password) => verifyLockScreen(userName, password));
  const [promptDialog, askValue] = useActionPrompt();
  const [formDialog, fill] = useActionForm();
  const [revealDialog, reveal] = useReveal();
  const [scanDialog, scan] = useActionScan();

  // A kind's own dialog (ActionTools.show), drawn until it says it is done.
  const [ownDialog, setOwnDialog] = useState<ReactNode>(null);
  const show = <T,>(render: (done: (answer: T) => void) => ReactNode) => new Promise<T>((resolve) => {
    setOwnDialog(render((answer) => { setOwnDialog(null); resolve(answer); }));
  });

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
   * dialog, so the calls are silent), or at once without a prompt. True when it went through. The prompt
   * starts with what its `defaultFrom` takes from the rows.
   */
  const withValue = async (action: ActionSchema, rows: Row[], send: (value: PromptAnswer | undefined, silent: boolean) => Promise<void>) => {
    if (!hasPrompt(action)) {
      await send(undefined, false);
      return true;
    }
    let tried = false;
    const sent = await askValue(action, promptDefault(action.prompt, rows), (raw) => {
      tried = true;
      return send(promptValue(raw), true);
    }, rows.map(idOf));
    // One request per row: a failed try may have changed some rows before the user gave up; show them as they are.
    if (!sent && tried) ctx.refresh();
    return sent;
  };
  const run = async (action: ActionSchema, rows: Row[]) => {
    const handler = resolveAction(action.kind);
    if (!handler) return notify(t('actions.unknownKind', { kind: action.kind }), 'error');
    await handler(action, rows, { ctx, t, label, navigate, idOf, notify, ask, withValue, fill, scan, reveal, show });
  };

  // Failures were already shown by the API client's toast (spec §8); the action just stops.
  const safeRun = (action: ActionSchema, rows: Row[]) => run(action, rows).catch(() => undefined);
  return [<>{confirmDialog}{passwordBox}{promptDialog}{formDialog}{revealDialog}{scanDialog}{ownDialog}</>, safeRun];
}
