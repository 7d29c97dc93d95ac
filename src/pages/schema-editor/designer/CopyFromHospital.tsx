import { Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Select, Spinner } from '@fluentui/react-components';
import { CopyArrowRight20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, displayText, unwrap } from '../../../api/client';
import { notify } from '../../../api/notify';
import { useSession } from '../../../store/session';

type Counts = Record<string, number>;
interface Sources { hospital_id: number; parts: string[]; here: Counts; sources: { id: number; counts: Counts }[] }
type Result = Record<string, { copied: number; skipped: number }>;

/**
 * Copy configuration from another hospital the administrator belongs to (report templates, numbering rules, the
 * price list, the QC dictionaries) into the one they work in: the server copies only what this hospital lacks,
 * checks both hospitals and each part's permission, and logs the copy.
 */
export function CopyFromHospital() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const [info, setInfo] = useState<Sources | null>(null);
  const [from, setFrom] = useState('');
  const [parts, setParts] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const nameOf = (id: number) => {
    const h = user?.hospitals.data.find((x) => x.id === id);
    return h ? (i18n.language === 'en-US' ? h.en_name : h.name) : `#${id}`;
  };

  const start = async () => {
    setOpen(true);
    setInfo(null); setFrom(''); setParts([]); setResult(null); setError('');
    try {
      const data = await unwrap<Sources>(api.get('/hospital-config/copy', { silent: true }));
      setInfo(data);
      setParts(data.parts);
    } catch (e) { setError(displayText(e, t('engine.loadFailed'))); }
  };
  const copy = async () => {
    setBusy(true);
    setError('');
    try {
      const res = await unwrap<{ result: Result }>(api.post('/hospital-config/copy', { from: Number(from), parts }, { silent: true }));
      setResult(res.result);
      notify(t('designer.copy.done'));
    } catch (e) { setError(displayText(e, t('engine.loadFailed'))); } finally { setBusy(false); }
  };
  const source = info?.sources.find((x) => String(x.id) === from);

  return (
    <>
      <Button icon={<CopyArrowRight20Regular />} onClick={() => void start()} data-testid="config-copy">{t('designer.copy.button')}</Button>
      <Dialog open={open} onOpenChange={(_, d) => !d.open && !busy && setOpen(false)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t('designer.copy.title', { hospital: info ? nameOf(info.hospital_id) : '' })}</DialogTitle>
            <DialogContent data-testid="copy-dialog">
              {!info && !error ? <Spinner size="tiny" /> : null}
              {info && !info.sources.length ? <p>{t('designer.copy.noSources')}</p> : null}
              {info?.sources.length ? (
                <>
                  <Field label={t('designer.copy.source')}>
                    <Select value={from} onChange={(_, d) => { setFrom(d.value); setResult(null); }} data-testid="copy-source">
                      <option value="">{t('designer.pick')}</option>
                      {info.sources.map((x) => <option key={x.id} value={String(x.id)}>{nameOf(x.id)}</option>)}
                    </Select>
                  </Field>
                  <p>{t('designer.copy.what')}</p>
                  {info.parts.map((p) => (
                    <div key={p} data-testid={`copy-row-${p}`}>
                      <Checkbox checked={parts.includes(p)} onChange={(_, d) => setParts(d.checked ? [...parts, p] : parts.filter((x) => x !== p))} data-testid={`copy-part-${p}`}
                        label={`${t(`designer.copy.parts.${p}`)} · ${source ? t('designer.copy.counts', { there: source.counts[p] ?? 0, here: info.here[p] ?? 0 }) : t('designer.copy.here', { here: info.here[p] ?? 0 })}`} />
                    </div>
                  ))}
                  <p>{t('designer.copy.rule')}</p>
                </>
              ) : null}
              {result ? (
                <ul data-testid="copy-result">
                  {Object.entries(result).map(([p, r]) => <li key={p} data-testid={`copy-result-${p}`}>{t(`designer.copy.parts.${p}`)}: {t('designer.copy.result', { copied: r.copied, skipped: r.skipped })}</li>)}
                </ul>
              ) : null}
              {error ? <p role="alert" data-testid="copy-error">{error}</p> : null}
            </DialogContent>
            <DialogActions>
              <Button disabled={busy} onClick={() => setOpen(false)} data-testid="copy-close">{t('designer.close')}</Button>
              <Button appearance="primary" disabled={busy || !from || !parts.length || !!result} onClick={() => void copy()} data-testid="copy-confirm">{t('designer.copy.confirm')}</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
