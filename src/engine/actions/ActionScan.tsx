import { Badge, Button, Field, Input, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { Dismiss16Regular } from '@fluentui/react-icons';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionSchema } from '../../core/pageSchema';
import { SelectInput } from '../../widgets/SelectInput';
import { useLabel } from '../../widgets/useLabel';
import { useDataProvider } from '../dataContext';
import { useSelectOptions } from '../options';
import { ActionDialogFrame, useDialogSend } from './ActionDialogFrame';
import { useAsking } from './useAsking';

/** What the scan dialog sends: the prompt's answer (e.g. the step) and the scanned codes. */
export interface ScanAnswer { value: string; codes: string[] }
interface CodeStatus { code: string; ok: boolean; message: string }
interface Scan {
  action: ActionSchema;
  submit(answer: ScanAnswer): Promise<void>;
}

const useStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0, maxHeight: '320px', overflowY: 'auto', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
  item: {
    display: 'grid', gridTemplateColumns: 'minmax(120px, max-content) 1fr auto auto', alignItems: 'center', gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`, borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
  },
  code: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
  message: { color: tokens.colorNeutralForeground2 },
  bad: { color: tokens.colorPaletteRedForeground1 },
  badge: { whiteSpace: 'nowrap' },
  empty: { padding: tokens.spacingVerticalM, color: tokens.colorNeutralForeground3 },
  stack: { display: 'grid', gap: tokens.spacingVerticalM },
});

/**
 * The dialog of a `scan` action: the prompt's choice (the step), a box a keyboard-wedge scanner types into (each
 * code ends with Enter and joins the list; a repeat is not added twice), each code's status from the action's
 * `scan.check` (asked again whenever the list or the choice changes), then one confirm sends them all. Confirm
 * waits until every code is ready; a refusal of the whole batch stays in the dialog.
 */
function ScanHost({ scan, onDone }: { scan: Scan; onDone(done: boolean): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const dp = useDataProvider();
  const { action } = scan;
  const prompt = action.prompt;
  const options = useSelectOptions(prompt?.options);
  const [value, setValue] = useState('');
  const [typed, setTyped] = useState('');
  const [codes, setCodes] = useState<string[]>([]);
  const [status, setStatus] = useState<Record<string, CodeStatus>>({});
  const [checking, setChecking] = useState(false);
  const [note, setNote] = useState('');
  const box = useRef<HTMLInputElement>(null);
  const asked = useRef(0);

  const ready = codes.length > 0 && (!prompt?.required || Boolean(value)) && (!action.scan?.check || (!checking && codes.every((c) => status[c]?.ok)));
  const { busy, error, setError, confirm } = useDialogSend(() => scan.submit({ value, codes }), onDone, () => {
    if (!ready) setError(codes.length ? t('scan.notReady') : t('scan.empty'));
    return ready;
  });

  const add = () => {
    const code = typed.trim();
    setTyped('');
    if (!code) return;
    if (codes.includes(code)) return setNote(t('scan.repeated', { code }));
    setNote('');
    setError('');
    setCodes((c) => [...c, code]);
  };
  // Each change of the list or the choice asks the server again; only the latest answer counts.
  useEffect(() => {
    const check = action.scan?.check;
    if (!check || !codes.length || (prompt?.required && !value)) return;
    const mine = ++asked.current;
    setChecking(true);
    dp.custom<{ codes: CodeStatus[] }>({ method: 'POST', url: check, body: { ...(prompt ? { [prompt.field]: value } : {}), [action.scan!.field]: codes }, options: { silent: true, allowMultiple: true } })
      .then((answer) => { if (mine === asked.current) setStatus(Object.fromEntries((answer?.codes ?? []).map((c) => [c.code, c]))); })
      .catch((e: unknown) => { if (mine === asked.current) setError((e as { displayText?: string })?.displayText ?? t('request.failed', { status: '—' })); })
      .finally(() => { if (mine === asked.current) setChecking(false); });
  }, [codes, value, action.scan, prompt, dp, t, setError]);

  return (
    <ActionDialogFrame title={label(action.label)} testId="scan-dialog" width={640} busy={busy} error={error} confirm={confirm}
      confirmLabel={t('scan.confirm', { count: codes.length })} confirmDisabled={!ready} onCancel={() => onDone(false)}>
      <div className={s.stack}>
        {prompt ? (
          <Field label={label(prompt.label ?? prompt.field)} required={prompt.required}>
            <SelectInput value={value} options={options} placeholder={t('dialog.select')} data-testid="scan-choice"
              onValueChange={(v) => { setValue(v); setError(''); box.current?.focus(); }} />
          </Field>
        ) : null}
        <Field label={action.scan?.label ? label(action.scan.label) : t('scan.box')} hint={note || t('scan.hint')}>
          {/* A keyboard-wedge scanner types the code and presses Enter: Enter adds the code and keeps the box ready for the next. */}
          <Input ref={box} autoFocus value={typed} data-testid="scan-input" onChange={(_e, d) => setTyped(d.value)}
            onKeyDown={(e) => { if (e.key === 'Enter' && !e.nativeEvent.isComposing) { e.preventDefault(); add(); } }} />
        </Field>
        <ul className={s.list} data-testid="scan-list" aria-live="polite">
          {codes.length ? codes.map((code) => {
            const st = status[code];
            return (
              <li key={code} className={s.item} data-code={code} data-state={st ? (st.ok ? 'ok' : 'bad') : 'pending'}>
                <span className={s.code}>{code}</span>
                <span className={st && !st.ok ? s.bad : s.message}>{st ? st.message : t('scan.checking')}</span>
                {st ? <Badge className={s.badge} appearance="tint" color={st.ok ? 'success' : 'danger'}>{st.ok ? t('scan.ok') : t('scan.bad')}</Badge> : <Spinner size="extra-tiny" />}
                <Button size="small" appearance="subtle" icon={<Dismiss16Regular />} aria-label={t('scan.remove', { code })} title={t('scan.remove', { code })}
                  onClick={() => { setCodes((c) => c.filter((x) => x !== code)); setError(''); }} />
              </li>
            );
          }) : <li className={s.empty}>{t('scan.empty')}</li>}
        </ul>
      </div>
    </ActionDialogFrame>
  );
}

/**
 * `const [dialog, scan] = useActionScan(); if (await scan(action, send)) …`: collects scanned codes with their
 * status and calls `send` with them while the dialog stays open. True once `send` succeeded, false when cancelled.
 */
export function useActionScan(): [ReactNode, (action: ActionSchema, submit: Scan['submit']) => Promise<boolean>] {
  const [dialog, ask] = useAsking<Scan>((scan, done) => <ScanHost scan={scan} onDone={done} />);
  return [dialog, (action, submit) => ask({ action, submit })];
}
