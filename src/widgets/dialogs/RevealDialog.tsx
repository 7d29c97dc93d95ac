import { Button, Field, Input, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { Copy20Regular } from '@fluentui/react-icons';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ResizableDialog } from './ResizableDialog';

const useStyles = makeStyles({
  value: { fontFamily: tokens.fontFamilyMonospace, width: '100%' },
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export interface Reveal {
  title: string;
  label?: string;
  value: string;
  note?: string;
}

interface Shown extends Reveal { resolve(): void }

/**
 * Puts the value on the clipboard. The Clipboard API exists only in secure contexts (a hospital LAN often serves plain
 * http), so without it the selected text is copied the older way. False when neither worked: the value stays selected
 * for the user's own Ctrl+C.
 */
async function copyText(input: HTMLInputElement | null, value: string): Promise<boolean> {
  input?.select();
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(value);
      return true;
    }
  } catch {
    // Refused (no permission, page not focused): fall through to the selection.
  }
  return input ? document.execCommand('copy') : false;
}

function RevealHost({ shown, onClose }: { shown: Shown; onClose(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <ResizableDialog open onOpenChange={(o) => !o && onClose()} title={shown.title} testId="reveal-dialog" width={480}
      actions={<Button appearance="primary" onClick={onClose} data-testid="reveal-close">{t('dialog.close')}</Button>}>
      <div className={s.body}>
        <Field label={shown.label} validationState={copied === null ? 'none' : copied ? 'success' : 'warning'}
          validationMessage={copied === null ? undefined : copied ? t('dialog.copied') : t('dialog.copyByHand')}>
          <Input ref={input} readOnly value={shown.value} className={s.value} data-testid="reveal-value" onFocus={(e) => e.target.select()}
            contentAfter={(
              <Button appearance="transparent" size="small" icon={<Copy20Regular />} aria-label={t('dialog.copy')} title={t('dialog.copy')}
                data-testid="reveal-copy" onClick={() => void copyText(input.current, shown.value).then(setCopied)} />
            )} />
        </Field>
        {shown.note && <MessageBar intent="warning"><MessageBarBody>{shown.note}</MessageBarBody></MessageBar>}
      </div>
    </ResizableDialog>
  );
}

/**
 * `const [dialog, reveal] = useReveal(); await reveal({ title, value, note })`: shows a value the server answers only
 * once (a new API key) with a copy button, and resolves when the user closes it. Render `dialog` once.
 */
export function useReveal(): [ReactNode, (r: Reveal) => Promise<void>] {
  const [shown, setShown] = useState<Shown | null>(null);
  const reveal = useCallback((r: Reveal) => new Promise<void>((resolve) => setShown({ ...r, resolve })), []);
  const close = () => {
    shown?.resolve();
    setShown(null);
  };
  return [shown ? <RevealHost shown={shown} onClose={close} /> : null, reveal];
}
