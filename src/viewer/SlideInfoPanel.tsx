import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { showStored } from '../core/dateTime';
import { associatedUrl, type SlideInfo } from './api';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: '8px', rowGap: '4px', fontSize: tokens.fontSizeBase200 },
  key: { color: tokens.colorNeutralForeground3 },
  images: { display: 'flex', gap: '8px', marginTop: '8px' },
  figure: { margin: 0, flex: 1, minWidth: 0 },
  img: { width: '100%', maxHeight: '140px', objectFit: 'contain', backgroundColor: tokens.colorNeutralBackground3, border: `1px solid ${tokens.colorNeutralStroke2}` },
});

/** Slide information of spec §2 (case, pathology number, glass slide, stain, scan time) with the label and macro images. */
export function SlideInfoPanel({ slide }: { slide: SlideInfo }) {
  const s = useStyles();
  const { t } = useTranslation();
  const size = slide.width && slide.height ? `${slide.width} × ${slide.height}` : '';
  const rows: [string, string | number | null][] = [
    ['name', slide.name],
    ['pathologyNumber', slide.pathology_number],
    ['patient', slide.patient_name],
    // The glass slide this file is the scan of (bound by its label's code): its block, its number in the block, its stain.
    ['block', slide.block_number],
    ['slideNo', slide.section_number],
    ['stain', slide.stain],
    // Stored as ISO text; shown as the spec's YYYY-MM-DD HH:mm:ss, local.
    ['scanAt', showStored(slide.scan_at)],
    ['mpp', slide.mpp ? `${slide.mpp} µm/px` : null],
    ['objective', slide.objective_power ? `${slide.objective_power}×` : null],
    ['size', size],
    ['vendor', slide.vendor],
  ];
  return (
    <div data-testid="slide-info">
      <div className={s.grid}>
        {rows.map(([k, v]) => (
          <Text key={k} as="span" style={{ display: 'contents' }}>
            <span className={s.key}>{t(`viewer.info.${k}`)}</span>
            <span data-testid={`info-${k}`}>{v ?? '—'}</span>
          </Text>
        ))}
      </div>
      {slide.format_note && <Text size={200}>{slide.format_note}</Text>}
      <div className={s.images}>
        {slide.has_label ? <figure className={s.figure}><img className={s.img} data-testid="label-image" src={associatedUrl(slide.id, 'label')} alt={t('viewer.info.label')} /><figcaption>{t('viewer.info.label')}</figcaption></figure> : null}
        {slide.has_macro ? <figure className={s.figure}><img className={s.img} data-testid="macro-image" src={associatedUrl(slide.id, 'macro')} alt={t('viewer.info.macro')} /><figcaption>{t('viewer.info.macro')}</figcaption></figure> : null}
      </div>
    </div>
  );
}
