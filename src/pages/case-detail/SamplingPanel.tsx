import { Button, Checkbox, Field, SpinButton, Textarea } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../api/notify';
import { appendDictation } from '../../core/speechInput';
import { GrossPhoto } from './GrossPhoto';
import { VoiceButton } from './VoiceButton';
import { addCaseImage, command, type Specimen } from './labApi';

/** A block's description column (SampleBody on the server). */
const DESCRIPTION_MAX = 500;

/**
 * Gross sampling: how many wax blocks each received specimen gives (at least one each, spec §5; the server
 * numbers them on from the case's last block), which specimens are used up by it, each specimen's gross
 * description (typed or dictated; kept on its blocks) and a photo from the camera (kept as a case image).
 */
export function SamplingPanel({ caseId, specimens, onDone }: { caseId: number; specimens: Specimen[]; onDone(): void }) {
  const { t } = useTranslation();
  const received = specimens.filter((s) => s.status === 'received');
  const [counts, setCounts] = useState<Record<number, number>>(Object.fromEntries(received.map((s) => [s.id, 1])));
  const [usedUp, setUsedUp] = useState<number[]>([]);
  const [descriptions, setDescriptions] = useState<Record<number, string>>({});
  const [photo, setPhoto] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const describe = (id: number, text: string) => setDescriptions((d) => ({ ...d, [id]: text.slice(0, DESCRIPTION_MAX) }));
  const submit = async () => {
    const blocks = received.flatMap((s) => Array.from({ length: counts[s.id] ?? 1 }, () => {
      const description = descriptions[s.id]?.trim();
      return { specimen_id: s.id, ...(description ? { description } : {}) };
    }));
    setBusy(true);
    try {
      await command(caseId, 'sample', { blocks, used_up_specimen_ids: usedUp });
      notify(t('lab.sampling.done', { count: blocks.length }));
    } catch {
      // The API client showed the server's message (e.g. each specimen needs at least one block).
      setBusy(false);
      return;
    }
    // After the sampling is in: a photo that fails to store (quota, disk) does not undo it, and says so.
    if (photo) {
      try {
        await addCaseImage(caseId, photo, t('lab.sampling.photo'));
        notify(t('lab.sampling.photoSaved'));
      } catch {
        // The API client showed why.
      }
    }
    setBusy(false);
    onDone();
  };
  return (
    <div data-testid="sampling-panel" style={{ display: 'grid', gap: 8 }}>
      {received.map((s, i) => (
        <div key={s.id} style={{ display: 'grid', gap: 4 }}>
          <div style={{ display: 'flex', gap: 16, alignItems: 'end' }}>
            <Field label={t('lab.sampling.blocksOf', { name: s.name })}>
              <SpinButton min={1} max={50} value={counts[s.id] ?? 1} data-testid={`sampling-count-${i}`}
                onChange={(_e, d) => {
                  const v = d.value ?? Number.parseInt(d.displayValue ?? '', 10);
                  if (Number.isInteger(v) && v >= 1 && v <= 50) setCounts((c) => ({ ...c, [s.id]: v as number }));
                }} />
            </Field>
            <Checkbox label={t('lab.sampling.usedUp')} checked={usedUp.includes(s.id)}
              onChange={(_e, d) => setUsedUp((u) => (d.checked ? [...u, s.id] : u.filter((x) => x !== s.id)))} />
          </div>
          <Field label={t('lab.sampling.description', { name: s.name })}>
            <div style={{ display: 'flex', gap: 4, alignItems: 'start' }}>
              <Textarea style={{ flex: 1 }} resize="vertical" maxLength={DESCRIPTION_MAX} value={descriptions[s.id] ?? ''} data-testid={`sampling-description-${i}`}
                onChange={(_e, d) => describe(s.id, d.value)} />
              <VoiceButton testId={`sampling-voice-${i}`} onWords={(words) => setDescriptions((d) => ({ ...d, [s.id]: appendDictation(d[s.id] ?? '', words, DESCRIPTION_MAX) }))} />
            </div>
          </Field>
        </div>
      ))}
      <GrossPhoto file={photo} onChange={setPhoto} />
      <div>
        <Button appearance="primary" disabled={busy} onClick={submit} data-testid="sampling-submit">{t('lab.sampling.submit')}</Button>
      </div>
    </div>
  );
}
