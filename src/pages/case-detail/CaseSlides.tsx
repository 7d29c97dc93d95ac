import { Title3 } from '@fluentui/react-components';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDateTime, fromStored } from '../../core/dateTime';
import { useChoices } from '../../engine/options';
import { LabTable } from './LabTable';
import type { DigitalSlide, Section } from './labApi';

const when = (v: string | null) => { const d = fromStored(v); return d ? formatDateTime(d) : ''; };

/**
 * The case's glass slides (block-section and stain, and the digital slide bound to each) and its digital slides (the
 * scanned files, each opening in the viewer in this tab, signed in; with the glass slide it is bound to).
 */
export function CaseSlides({ caseId, sections, slides }: { caseId: number; sections: Section[]; slides: DigitalSlide[] }) {
  const { t } = useTranslation();
  const statusChoices = useChoices('slide_status');
  const status = useCallback((v: string) => statusChoices.find((c) => c.value === v)?.label ?? v, [statusChoices]);
  const byId = new Map(slides.map((s) => [s.id, s]));
  const glassOf = new Map(sections.filter((x) => x.slide_id !== null).map((x) => [x.slide_id!, x]));
  const glassLabel = (x: Section) => x.label ?? `${x.block_number}-${x.section_number}`;
  const open = (slide: DigitalSlide) => <Link to={`/kfb/${caseId}/${slide.id}`} data-testid={`open-slide-${slide.id}`}>{slide.name}</Link>;
  return (
    <>
      <LabTable<Section> testId="slides" rows={sections} columns={[
        { key: 'label', label: t('lab.detail.slideLabel'), render: glassLabel },
        { key: 'stain', label: t('lab.detail.stain'), render: (r) => r.stain ?? '' },
        { key: 'digital', label: t('lab.detail.digitalSlide'), render: (r) => { const slide = r.slide_id === null ? undefined : byId.get(r.slide_id); return slide ? open(slide) : t('lab.detail.notBound'); } },
      ]} />
      <Title3>{t('lab.detail.digitalSlides')}</Title3>
      <LabTable<DigitalSlide> testId="digital-slides" rows={slides} columns={[
        { key: 'name', label: t('lab.detail.slideFile'), render: open },
        { key: 'glass', label: t('lab.detail.glassSlide'), render: (r) => { const glass = glassOf.get(r.id); return glass ? glassLabel(glass) : t('lab.detail.notBound'); } },
        { key: 'status', label: t('lab.detail.slideStatus'), render: (r) => status(r.status) },
        { key: 'objective', label: t('lab.detail.objective'), render: (r) => (r.objective_power ? `${r.objective_power}×` : '') },
        { key: 'scan', label: t('lab.detail.scanAt'), render: (r) => when(r.scan_at) },
      ]} />
    </>
  );
}
