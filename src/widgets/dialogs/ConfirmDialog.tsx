import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DIALOG_WIDTH } from './ResizableDialog';
import { useThrottledConfirm } from './useThrottledConfirm';

const useStyles = makeStyles({
  danger: {
    backgroundColor: tokens.colorPaletteRedBackground3,
    ':hover': { backgroundColor: tokens.colorPaletteRedForeground1 },
  },
});

interface Ask { title: string; message: ReactNode; danger?: boolean; resolve(ok: boolean): void }

/** `const [dialog, confirm] = useConfirm(); if (await confirm({ title, message })) …` — render `dialog` once. */
export function useConfirm(): [ReactNode, (opts: Omit<Ask, 'resolve'>) => Promise<boolean>] {
  const s = useStyles();
  const { t } = useTranslation();
  const [ask, setAsk] = useState<Ask | null>(null);
  const confirm = useCallback((opts: Omit<Ask, 'resolve'>) => new Promise<boolean>((resolve) => setAsk({ ...opts, resolve })), []);
  const close = (ok: boolean) => {
    ask?.resolve(ok);
    setAsk(null);
  };
  const onConfirm = useThrottledConfirm(() => close(true));
  const dialog = (
    <Dialog open={!!ask} modalType="alert" onOpenChange={(_, d) => !d.open && close(false)}>
      <DialogSurface style={{ width: DIALOG_WIDTH }} data-testid="confirm-dialog">
        <DialogBody>
          <DialogTitle>{ask?.title}</DialogTitle>
          <DialogContent>{ask?.message}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => close(false)}>{t('common.cancel')}</Button>
            <Button appearance="primary" className={ask?.danger ? s.danger : undefined} onClick={onConfirm}>{t('common.confirm')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
  return [dialog, confirm];
}
