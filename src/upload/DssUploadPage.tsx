import { Button, Field, Input, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ArrowUploadRegular } from '@fluentui/react-icons';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { notifyError } from '../api/notify';
import { isAcceptedFile, UPLOAD_ACCEPT } from '../core/uploadPlan';
import { addFiles } from './uploader';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '880px' },
  title: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, margin: 0 },
  zone: {
    display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: tokens.spacingVerticalM,
    minHeight: '220px', border: `2px dashed ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1, padding: tokens.spacingHorizontalXL,
  },
  over: { border: `2px dashed ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  icon: { fontSize: '48px', color: tokens.colorBrandForeground1 },
  hidden: { display: 'none' },
  caseField: { maxWidth: '360px' },
});

/** DssUpload (spec §2 slide upload): drop zone and file picker; tasks run in the floating upload list. */
export default function DssUploadPage() {
  const s = useStyles();
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [caseNumber, setCaseNumber] = useState('');
  const [caseError, setCaseError] = useState('');

  const take = async (list: FileList | null | undefined) => {
    const files = [...(list ?? [])];
    const rejected = files.filter((f) => !isAcceptedFile(f.name));
    if (rejected.length > 0) notifyError(t('upload.rejected', { names: rejected.map((f) => f.name).join(', ') }));
    const accepted = files.filter((f) => isAcceptedFile(f.name));
    if (accepted.length === 0) return;
    const number = caseNumber.trim();
    // A mistyped number is caught before gigabytes are sent, not when the finished file is bound.
    if (number) {
      const known = await api.get(`/pathology/get_id_by_number/${encodeURIComponent(number)}`, { silent: true }).then(() => true, () => false);
      if (!known) return setCaseError(t('upload.caseUnknown', { number }));
    }
    addFiles(accepted, undefined, number || undefined);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void take(e.dataTransfer.files);
  };

  return (
    <div className={s.root} data-testid="dss-upload">
      <h2 className={s.title}>{t('upload.pageTitle')}</h2>
      <Text>{t('upload.intro')}</Text>
      <Field className={s.caseField} label={t('upload.caseLabel')} hint={t('upload.caseHint')}
        validationMessage={caseError || undefined} validationState={caseError ? 'error' : 'none'}>
        <Input value={caseNumber} data-testid="upload-case-number" maxLength={64}
          onChange={(_, d) => { setCaseNumber(d.value); setCaseError(''); }} />
      </Field>
      <div className={mergeClasses(s.zone, over && s.over)} data-testid="upload-drop"
        onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)} onDrop={onDrop}>
        <ArrowUploadRegular className={s.icon} />
        <Text>{t('upload.dropHere')}</Text>
        <Button appearance="primary" onClick={() => input.current?.click()}>{t('upload.pick')}</Button>
        <input ref={input} type="file" multiple accept={UPLOAD_ACCEPT.join(',')} className={s.hidden} data-testid="upload-input"
          onChange={(e) => { void take(e.target.files).finally(() => { e.target.value = ''; }); }} />
      </div>
    </div>
  );
}
