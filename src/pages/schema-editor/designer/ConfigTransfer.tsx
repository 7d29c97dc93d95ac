import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { ArrowDownload20Regular, ArrowUpload20Regular } from '@fluentui/react-icons';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, displayText, unwrap } from '../../../api/client';
import { notify } from '../../../api/notify';
import { formatDateTime } from '../../../core/dateTime';
import { forgetAllSchemas } from '../../../engine/schemaApi';
import { serverProblems } from '../overrideEditing';

const KINDS = ['pages', 'rules', 'contracts', 'menus'] as const;
/** A checked file waiting for the administrator's confirmation, with what it would change (the server's preview). */
interface Pending {
  body: unknown; name: string; hospitalId: number | null; exportedAt: string | null;
  changes: Partial<Record<(typeof KINDS)[number], { key: string; change: 'set' | 'reset' }[]>>;
}

/** At most this much is read from a chosen file: a whole configuration is a few hundred KB. */
const MAX_FILE = 4 * 1024 * 1024;

/**
 * Export and import of the working hospital's whole configuration (every page override, rule set, field
 * extension and its menu changes) as one versioned file; the server refuses a changed or invalid file whole and says why. An import
 * first shows which documents the file sets and which go back to their base, and happens only when confirmed.
 */
export function ConfigTransfer({ onImported }: { onImported(): void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [reasons, setReasons] = useState<{ path: string; message: string }[] | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);

  const download = async () => {
    const file = await unwrap<{ hospitalId: number }>(api.get('/schema-config/export'));
    const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `dsms-config-hospital-${file.hospitalId}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const refuse = (e: unknown) => {
    const res = (e as { response?: { status?: number; data?: { errors?: unknown; message?: string } } }).response;
    setReasons(res?.status === 422 && res.data?.errors ? serverProblems(res.data.errors) : [{ path: 'file', message: displayText(e, t('engine.loadFailed')) }]);
  };

  // A chosen file is checked and its changes shown first (nothing written); the import happens on confirm.
  const choose = async (chosen: File | undefined) => {
    if (!chosen) return;
    if (chosen.size > MAX_FILE) { setReasons([{ path: 'file', message: t('designer.fileTooLarge') }]); return; }
    let body: unknown;
    try { body = JSON.parse(await chosen.text()); } catch (e) { setReasons([{ path: 'file', message: (e as Error).message }]); return; }
    try {
      const preview = await unwrap<Omit<Pending, 'body' | 'name'>>(api.post('/schema-config/import/preview', body, { silent: true }));
      setPending({ ...preview, body, name: chosen.name });
    } catch (e) { refuse(e); }
  };

  const apply = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      await unwrap(api.post('/schema-config/import', pending.body, { silent: true }));
      forgetAllSchemas();
      setPending(null);
      notify(t('designer.imported'));
      onImported();
    } catch (e) { setPending(null); refuse(e); } finally { setBusy(false); }
  };
  const count = pending ? KINDS.reduce((n, k) => n + (pending.changes[k]?.length ?? 0), 0) : 0;

  return (
    <>
      <Button icon={<ArrowDownload20Regular />} onClick={() => void download()} data-testid="config-export">{t('designer.export')}</Button>
      <Button icon={<ArrowUpload20Regular />} onClick={() => input.current?.click()} data-testid="config-import">{t('designer.import')}</Button>
      <input ref={input} type="file" accept="application/json,.json" hidden onChange={(e) => { void choose(e.target.files?.[0]); e.target.value = ''; }} data-testid="config-import-file" />
      <Dialog open={!!pending} onOpenChange={(_, d) => !d.open && !busy && setPending(null)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t('designer.importPreviewTitle')}</DialogTitle>
            <DialogContent data-testid="config-import-preview">
              <p>{t('designer.importFrom', { file: pending?.name ?? '', hospital: pending?.hospitalId ?? '?', date: pending?.exportedAt ? formatDateTime(new Date(pending.exportedAt)) : '?' })}</p>
              {count ? KINDS.filter((k) => pending!.changes[k]?.length).map((k) => (
                <div key={k}>
                  <b>{t(`designer.importKind.${k}`)}</b>
                  <ul data-testid={`config-import-${k}`}>
                    {pending!.changes[k]!.map((c) => <li key={c.key} data-testid={`config-import-${k}-${c.key}`}>{c.key} · {t(`designer.importChange.${c.change}`)}</li>)}
                  </ul>
                </div>
              )) : <p data-testid="config-import-nothing">{t('designer.importNothing')}</p>}
              <p>{t('designer.importWarning')}</p>
            </DialogContent>
            <DialogActions>
              <Button disabled={busy} onClick={() => setPending(null)} data-testid="config-import-cancel">{t('designer.cancel')}</Button>
              <Button appearance="primary" disabled={busy || !count} onClick={() => void apply()} data-testid="config-import-confirm">{t('designer.importConfirm', { count })}</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
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
