import { Button, Field, makeStyles, tokens } from '@fluentui/react-components';
import { Camera20Regular, Dismiss20Regular } from '@fluentui/react-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  row: { display: 'flex', gap: '8px', alignItems: 'center' },
  preview: { maxWidth: '240px', maxHeight: '180px', borderRadius: tokens.borderRadiusMedium, border: `1px solid ${tokens.colorNeutralStroke2}` },
  hidden: { display: 'none' },
});

/**
 * The gross photo (issue 10, spec: "photo from the camera"): a phone or tablet opens its back camera
 * (capture=environment), a desktop the file chooser; the chosen picture is previewed here and stored with the
 * sampling (SamplingPanel).
 */
export function GrossPhoto({ file, onChange }: { file: File | null; onChange(file: File | null): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  return (
    <Field label={t('lab.sampling.photo')} hint={t('lab.sampling.photoHint')}>
      <div className={s.row}>
        <input ref={input} className={s.hidden} type="file" accept="image/*" capture="environment" data-testid="gross-photo-input"
          onChange={(e) => { onChange(e.target.files?.[0] ?? null); e.target.value = ''; }} />
        <Button icon={<Camera20Regular />} onClick={() => input.current?.click()} data-testid="gross-photo-take">{t(file ? 'lab.sampling.photoRetake' : 'lab.sampling.photoTake')}</Button>
        {file ? <Button appearance="subtle" icon={<Dismiss20Regular />} aria-label={t('lab.sampling.photoRemove')} onClick={() => onChange(null)} data-testid="gross-photo-remove" /> : null}
      </div>
      {url ? <img className={s.preview} src={url} alt={t('lab.sampling.photo')} data-testid="gross-photo-preview" /> : null}
    </Field>
  );
}
