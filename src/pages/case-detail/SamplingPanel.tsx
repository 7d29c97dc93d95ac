import { Button, Checkbox, Field, SpinButton } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../api/notify';
import { command, type Specimen } from './labApi';

/**
 * Gross sampling: how many wax blocks each received specimen gives (at least one each, spec §5; the server
 * numbers them on from the case's last block), and which specimens are used up by it.
 */
export function SamplingPanel({ caseId, specimens, onDone }: { caseId: number; specimens: Specimen[]; onDone(): void }) {
  const { t } = useTranslation();
  const received = specimens.filter((s) => s.status === 'received');
  const [counts, setCounts] = useState<Record<number, number>>(Object.fromEntries(received.map((s) => [s.id, 1])));
  const [usedUp, setUsedUp] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const blocks = received.flatMap((s) => Array.from({ length: counts[s.id] ?? 1 }, () => ({ specimen_id: s.id })));
    setBusy(true);
    try {
      await command(caseId, 'sample', { blocks, used_up_specimen_ids: usedUp });
      notify(t('lab.sampling.done', { count: blocks.length }));
      onDone();
    } catch {
      // The API client showed the server's message (e.g. each specimen needs at least one block).
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="sampling-panel" style={{ display: 'grid', gap: 8 }}>
      {received.map((s, i) => (
        <div key={s.id} style={{ display: 'flex', gap: 16, alignItems: 'end' }}>
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
      ))}
      <div>
        <Button appearance="primary" disabled={busy} onClick={submit} data-testid="sampling-submit">{t('lab.sampling.submit')}</Button>
      </div>
    </div>
  );
}
