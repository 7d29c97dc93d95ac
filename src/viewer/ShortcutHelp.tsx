import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from './shortcuts';

const useStyles = makeStyles({
  table: { display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: '16px', rowGap: '4px' },
  kbd: { fontFamily: tokens.fontFamilyMonospace, backgroundColor: tokens.colorNeutralBackground3, padding: '0 6px', borderRadius: tokens.borderRadiusSmall },
});

/** The keyboard shortcuts, from the same list the key handler uses. */
export function ShortcutHelp({ open, onClose }: { open: boolean; onClose(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(_, d) => { if (!d.open) onClose(); }}>
      <DialogSurface data-testid="shortcut-help">
        <DialogBody>
          <DialogTitle>{t('viewer.help.title')}</DialogTitle>
          <DialogContent>
            <div className={s.table}>
              {SHORTCUTS.map((sc) => (
                <span key={sc.action} style={{ display: 'contents' }}>
                  <kbd className={s.kbd}>{sc.keys}</kbd>
                  <span>{t(`viewer.shortcut.${sc.action}`)}</span>
                </span>
              ))}
            </div>
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>{t('viewer.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
