import { Badge, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { radiologyKind, type RadiologySeries } from '../core/radiology';

const useStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalXS },
  item: {
    display: 'grid', gap: '2px', width: '100%', textAlign: 'start', cursor: 'pointer', padding: tokens.spacingHorizontalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground1,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  on: { border: `2px solid ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  line: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
});

/** The case's series: modality, description and size; the current one marked. */
export function SeriesList({ series, current, onOpen }: { series: RadiologySeries[]; current: string; onOpen: (s: RadiologySeries) => void }) {
  const s = useStyles();
  const { t } = useTranslation();
  return (
    <ul className={s.list} data-testid="dicom-series">
      {series.map((x) => (
        <li key={x.key}>
          <button type="button" className={mergeClasses(s.item, x.key === current && s.on)} aria-current={x.key === current} data-series={x.key}
            data-modality={x.modality} onClick={() => onOpen(x)}>
            <span className={s.line}>
              <Badge appearance="filled" color={x.key === current ? 'brand' : 'informative'}>{radiologyKind(x.modality) ?? x.modality}</Badge>
              <Text weight="semibold" truncate wrap={false}>{x.description || t('dicom.seriesUnnamed')}</Text>
            </span>
            <Text size={200}>{t('dicom.seriesImages', { count: x.images.length })}</Text>
          </button>
        </li>
      ))}
    </ul>
  );
}
