import { Button } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../api/notify';
import { command } from './labApi';

/** Slide making: the step the case is at (dehydration, embedding, cutting, staining, covering), confirmed one at a time. */
export function MakingPanel({ caseId, step, stepWord, onDone }: { caseId: number; step: string; stepWord: string; onDone(): void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await command(caseId, 'make-slides', { step });
      notify(t('lab.making.done', { step: stepWord }));
      onDone();
    } catch {
      // The API client showed the server's message.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button appearance="primary" disabled={busy} onClick={run} data-testid={`making-${step}`}>{t('lab.making.next', { step: stepWord })}</Button>
  );
}
