import { Button, makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../api/notify';
import { loadLabels, logPrint, type Label, type LabelKind } from './labApi';

const useStyles = makeStyles({
  sheet: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM },
  label: {
    width: '52mm', padding: '2mm', border: `1px solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusSmall,
    backgroundColor: '#fff', color: '#000', display: 'grid', gap: '1mm', breakInside: 'avoid',
    '& svg': { maxWidth: '100%', height: 'auto', maxHeight: '18mm' },
  },
  bar: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center', flexWrap: 'wrap', '@media print': { display: 'none' } },
});

/**
 * Cassette and slide labels as a print-ready sheet (barcodes drawn by the server with bwip-js: Code128 or
 * DataMatrix), loaded again whenever the case moves (`stamp`: cutting makes the slides). Printing logs on the case's timeline first (a reprint when this kind was printed before).
 */
export function LabelsPanel({ caseId, stamp, printed, onPrinted }: { caseId: number; stamp: number; printed: LabelKind[]; onPrinted(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [kind, setKind] = useState<LabelKind>('slide');
  const [symbology, setSymbology] = useState<'code128' | 'datamatrix'>('code128');
  const [labels, setLabels] = useState<Label[]>([]);
  useEffect(() => {
    let live = true;
    loadLabels(caseId, kind, symbology).then((l) => live && setLabels(l), () => live && setLabels([]));
    return () => { live = false; };
  }, [caseId, kind, symbology, stamp]);
  const reprint = printed.includes(kind);
  const print = async () => {
    try {
      await logPrint(caseId, kind, labels.map((l) => l.id), reprint);
    } catch {
      return;
    }
    notify(t('lab.labels.printed', { count: labels.length }));
    onPrinted();
    window.print();
  };
  return (
    <div data-testid="labels-panel" style={{ display: 'grid', gap: 12 }}>
      <div className={s.bar}>
        <TabList selectedValue={kind} onTabSelect={(_e, d) => setKind(d.value as LabelKind)} size="small">
          <Tab value="slide" data-testid="labels-kind-slide">{t('lab.labels.slide')}</Tab>
          <Tab value="cassette" data-testid="labels-kind-cassette">{t('lab.labels.cassette')}</Tab>
        </TabList>
        <TabList selectedValue={symbology} onTabSelect={(_e, d) => setSymbology(d.value as 'code128' | 'datamatrix')} size="small">
          <Tab value="code128">{t('lab.labels.code128')}</Tab>
          <Tab value="datamatrix">{t('lab.labels.datamatrix')}</Tab>
        </TabList>
        <Button appearance="primary" disabled={!labels.length} onClick={print} data-testid="labels-print">
          {reprint ? t('lab.labels.reprint') : t('lab.labels.print')}
        </Button>
      </div>
      {labels.length ? (
        <div className={s.sheet} data-testid="labels-sheet">
          {labels.map((l) => (
            <div key={l.id} className={s.label} data-testid="label">
              {/* The server's bwip-js SVG: markup it drew from the label's code, no script. */}
              <div dangerouslySetInnerHTML={{ __html: l.svg }} />
              <Text size={200} weight="semibold">{l.lines.join(' · ')}</Text>
            </div>
          ))}
        </div>
      ) : <Text>{t('lab.labels.empty')}</Text>}
    </div>
  );
}
