import { Button, Caption1, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { Open20Regular } from '@fluentui/react-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NEUTRAL_COLOUR } from '../core/colourAdjust';
import { openSignedIn } from '../store/sessionHandoff';
import { fetchDescriptor, listAnnotations, openSlide, type Annotation, type DziDescriptor, type SlideInfo } from '../viewer/api';
import { ViewerPane } from '../viewer/ViewerPane';

const useStyles = makeStyles({
  root: {
    position: 'sticky', top: tokens.spacingVerticalL, alignSelf: 'start', height: 'calc(100vh - 96px)', minHeight: '420px', display: 'flex', flexDirection: 'column',
    gap: tokens.spacingVerticalXS, minWidth: 0, backgroundColor: tokens.colorNeutralBackground1, border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium, overflow: 'hidden',
  },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}` },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontWeight: tokens.fontWeightSemibold },
  pane: { flexGrow: 1, display: 'grid', minHeight: 0 },
  center: { margin: 'auto' },
  strip: { display: 'flex', gap: tokens.spacingHorizontalXS, padding: tokens.spacingHorizontalXS, overflowX: 'auto', borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
  thumb: {
    display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '2px', padding: '2px', cursor: 'pointer', border: '2px solid transparent',
    borderRadius: tokens.borderRadiusMedium, background: 'none', color: 'inherit', fontSize: tokens.fontSizeBase100, maxWidth: '104px', flexShrink: 0,
  },
  thumbOn: { border: `2px solid ${tokens.colorBrandStroke1}` },
  thumbImg: { width: '96px', height: '56px', objectFit: 'cover', backgroundColor: tokens.colorNeutralBackground3 },
  thumbName: { maxWidth: '96px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

interface Slide { id: number; name: string; status: string }

/**
 * The slide viewer beside the report (issue 31): one of the case's slides, read-only (pan, zoom; its annotations drawn),
 * the case's slide strip under it to move between slides, and the full viewer in a new tab, signed in. The report
 * beside it stays editable: nothing here takes the keyboard (the viewer's shortcuts belong to the full viewer).
 */
export function SideViewer({ caseId, slides, annotations: showAnnotations }: { caseId: number; slides: Slide[]; annotations: boolean }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [current, setCurrent] = useState<number | null>(slides.find((sl) => sl.status === 'ready')?.id ?? slides[0]?.id ?? null);
  const [info, setInfo] = useState<SlideInfo | null>(null);
  const [descriptor, setDescriptor] = useState<DziDescriptor | null | undefined>(undefined);
  const [annotations, setAnnotations] = useState<Annotation[]>([]);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!current) return;
    let live = true;
    setInfo(null);
    setDescriptor(undefined);
    setAnnotations([]);
    setFailed(false);
    // Opened as the full viewer opens it: the view is logged on the server.
    openSlide(current).then((i) => { if (live) setInfo(i); }, () => { if (live) setFailed(true); });
    fetchDescriptor(current).then((d) => { if (live) setDescriptor(d); }, () => { if (live) setDescriptor(null); });
    if (showAnnotations) listAnnotations(current).then((a) => { if (live) setAnnotations(a); }, () => undefined);
    return () => { live = false; };
  }, [current, showAnnotations]);

  if (!slides.length) return <div className={s.root} data-testid="side-viewer"><Caption1 className={s.center}>{t('diagnosis.noSlides')}</Caption1></div>;
  const ready = info && descriptor !== undefined && info.id === current;
  return (
    <div className={s.root} data-testid="side-viewer" data-slide={current ?? ''}>
      <div className={s.head}>
        <span className={s.name} data-testid="side-viewer-name">{info?.name ?? ''}</span>
        {info?.block_number ? <Caption1>{t('diagnosis.sideViewer.glass', { block: info.block_number, number: info.section_number ?? '', stain: info.stain ?? '' })}</Caption1> : null}
        <Button size="small" appearance="subtle" icon={<Open20Regular />} disabled={!current} data-action="side-viewer-open"
          onClick={() => current && openSignedIn(`/kfb/${caseId}/${current}`)}>{t('diagnosis.sideViewer.openTab')}</Button>
      </div>
      <div className={s.pane}>
        {failed ? <Caption1 className={s.center} role="alert">{t('viewer.openFailed')}</Caption1>
          : ready ? (
            <ViewerPane key={current} index={0} slide={info} descriptor={descriptor ?? null} active tool="pan" color="#ff0000" annotations={annotations}
              selectedId={null} gridUm={null} colour={NEUTRAL_COLOUR} touch={false} showTitle={false} editable={() => false}
              onActivate={() => undefined} onViewer={() => undefined} onDraw={() => undefined} onTooSmall={() => undefined}
              onSelect={() => undefined} onMove={() => undefined} onViewChange={() => undefined} />
          ) : <Spinner className={s.center} />}
      </div>
      <div className={s.strip} role="listbox" aria-label={t('diagnosis.sideViewer.strip')} data-testid="side-viewer-strip">
        {slides.map((sl) => (
          <button key={sl.id} type="button" role="option" aria-selected={sl.id === current} className={`${s.thumb} ${sl.id === current ? s.thumbOn : ''}`}
            data-slide={sl.id} title={sl.name} onClick={() => setCurrent(sl.id)}>
            <img className={s.thumbImg} src={`/api/data/kfb/thumb/${sl.id}`} alt="" />
            <span className={s.thumbName}>{sl.name}</span>
          </button>
        ))}
      </div>
    </div>
  );
}
