import { Button, makeStyles, Spinner, Text } from '@fluentui/react-components';
import { ArrowUpload20Regular } from '@fluentui/react-icons';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addCaseImage } from './labApi';

const useStyles = makeStyles({
  row: { display: 'flex', gap: '8px', alignItems: 'center' },
  hidden: { display: 'none' },
});

/**
 * Attaches radiology images (DICOM files: a series' instances at once) to the case (issue 30): each file as the
 * user's attachment, then tied to the case, where the server reads its header and refuses a modality spec §5 does
 * not take (its translated message is shown by the API client). Stops at the first refused file.
 */
export function RadiologyUpload({ caseId, onDone }: { caseId: number; onDone(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const send = async (files: File[]) => {
    setProgress({ done: 0, total: files.length });
    try {
      for (const [i, file] of files.entries()) {
        await addCaseImage(caseId, file, file.name);
        setProgress({ done: i + 1, total: files.length });
      }
    } catch {
      // The API client has shown the server's reason; what was attached before it stays.
    } finally {
      setProgress(null);
      onDone();
    }
  };
  return (
    <div className={s.row}>
      <input ref={input} className={s.hidden} type="file" multiple accept=".dcm,.dicom,application/dicom" data-testid="radiology-input"
        onChange={(e) => { const files = [...(e.target.files ?? [])]; e.target.value = ''; if (files.length) void send(files); }} />
      <Button icon={<ArrowUpload20Regular />} disabled={!!progress} onClick={() => input.current?.click()} data-testid="radiology-upload">{t('lab.detail.attachRadiology')}</Button>
      {progress ? <><Spinner size="tiny" /><Text>{t('lab.detail.attachProgress', progress)}</Text></> : <Text size={200}>{t('lab.detail.attachHint')}</Text>}
    </div>
  );
}
