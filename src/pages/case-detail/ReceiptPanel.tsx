import { Button, Checkbox, Field, Input } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../api/notify';
import { command, type Specimen } from './labApi';

/** Specimen receipt (spec §4 registration → sample): receive the chosen specimens, or reject them with a reason. */
export function ReceiptPanel({ caseId, specimens, onDone }: { caseId: number; specimens: Specimen[]; onDone(): void }) {
  const { t } = useTranslation();
  const pending = specimens.filter((s) => s.status === 'pending');
  const [chosen, setChosen] = useState<number[]>(pending.map((s) => s.id));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (name: 'receive' | 'reject') => {
    if (!chosen.length) return notify(t('lab.receipt.selectFirst'), 'warning');
    setBusy(true);
    try {
      await command(caseId, name, name === 'receive' ? { specimen_ids: chosen } : { specimen_ids: chosen, reason: reason.trim() });
      notify(t('lab.receipt.done'));
      onDone();
    } catch {
      // The API client showed the server's message.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="receipt-panel" style={{ display: 'grid', gap: 8 }}>
      {pending.map((s) => (
        <Checkbox key={s.id} label={s.name} checked={chosen.includes(s.id)}
          onChange={(_e, d) => setChosen((c) => (d.checked ? [...c, s.id] : c.filter((x) => x !== s.id)))} />
      ))}
      <div style={{ display: 'flex', gap: 8, alignItems: 'end', flexWrap: 'wrap' }}>
        <Button appearance="primary" disabled={busy} onClick={() => run('receive')} data-testid="receipt-receive">{t('lab.receipt.receive')}</Button>
        <Field label={t('lab.receipt.reason')}>
          <Input value={reason} maxLength={500} onChange={(_e, d) => setReason(d.value)} data-testid="receipt-reason" />
        </Field>
        <Button appearance="secondary" disabled={busy || !reason.trim()} onClick={() => run('reject')} data-testid="receipt-reject">{t('lab.receipt.reject')}</Button>
      </div>
    </div>
  );
}
