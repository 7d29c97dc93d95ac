import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { ArrowDownload20Regular, ArrowUpload20Regular } from '@fluentui/react-icons';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, displayText, unwrap } from '../../../api/client';
import { notify } from '../../../api/notify';
import { forgetAllSchemas } from '../../../engine/schemaApi';
import { serverProblems } from '../overrideEditing';

/** At most this much is read from a chosen file: a whole configuration is a few hundred KB. */
const MAX_FILE = 4 * 1024 * 1024;

/**
 * Export and import of the working hospital's whole configuration (every page override, rule set and field
 * extension) as one versioned file; the server refuses a changed or invalid file whole and says why.
 */
export function ConfigTransfer({ onImported }: { onImported(): void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [reasons, setReasons] = useState<{ path: string; message: string }[] | null>(null);

  const download = async () => {
    const file = await unwrap<{ hospitalId: number }>(api.get('/schema-config/export'));
    const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `dsms-config-hospital-${file.hospitalId}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const upload = async (chosen: File | undefined) => {
    if (!chosen) return;
    if (chosen.size > MAX_FILE) { setReasons([{ path: 'file', message: t('designer.fileTooLarge') }]); return; }
    let body: unknown;
    try { body = JSON.parse(await chosen.text()); } catch (e) { setReasons([{ path: 'file', message: (e as Error).message }]); return; }
    try {
      await unwrap(api.post('/schema-config/import', body, { silent: true }));
      forgetAllSchemas();
      notify(t('designer.imported'));
      onImported();
    } catch (e) {
      const res = (e as { response?: { status?: number; data?: { errors?: unknown; message?: string } } }).response;
      setReasons(res?.status === 422 && res.data?.errors ? serverProblems(res.data.errors) : [{ path: 'file', message: displayText(e, t('engine.loadFailed')) }]);
    }
  };

  return (
    <>
      <Button icon={<ArrowDownload20Regular />} onClick={() => void download()} data-testid="config-export">{t('designer.export')}</Button>
      <Button icon={<ArrowUpload20Regular />} onClick={() => input.current?.click()} data-testid="config-import">{t('designer.import')}</Button>
      <input ref={input} type="file" accept="application/json,.json" hidden onChange={(e) => { void upload(e.target.files?.[0]); e.target.value = ''; }} data-testid="config-import-file" />
      <Dialog open={!!reasons} onOpenChange={(_, d) => !d.open && setReasons(null)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t('designer.importRefused')}</DialogTitle>
            <DialogContent>
              <ul data-testid="config-import-reasons">{reasons?.map((r, i) => <li key={i}><b>{r.path}</b> {r.message}</li>)}</ul>
            </DialogContent>
            <DialogActions><Button appearance="primary" onClick={() => setReasons(null)}>{t('designer.close')}</Button></DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
