import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { isAxiosError } from 'axios';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { AnnotationOverlay } from './AnnotationOverlay';
import { sharedView, type SharedView } from './shareApi';
import { SlideViewer } from './slideViewer';

const useStyles = makeStyles({
  root: { position: 'fixed', inset: 0, display: 'grid', gridTemplateRows: 'auto 1fr', backgroundColor: tokens.colorNeutralBackground2 },
  bar: { display: 'flex', alignItems: 'baseline', gap: '16px', padding: '8px 16px', backgroundColor: tokens.colorNeutralBackground1, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  body: { display: 'grid', gridTemplateColumns: '1fr 280px', minHeight: 0 },
  pane: { position: 'relative', overflow: 'hidden', backgroundColor: tokens.colorNeutralBackground3 },
  osd: { position: 'absolute', inset: 0 },
  side: { padding: '12px', display: 'flex', flexDirection: 'column', gap: '6px', overflowY: 'auto', backgroundColor: tokens.colorNeutralBackground1 },
  center: { position: 'fixed', inset: 0, display: 'grid', placeContent: 'center', justifyItems: 'center', gap: '12px', textAlign: 'center' },
});

type Failure = 'expired' | 'revoked' | 'notFound' | 'loginRequired' | 'failed';

/** Why the share cannot be shown, from the server's refusal. */
function failureOf(e: unknown): Failure {
  if (!isAxiosError(e)) return 'failed';
  const status = e.response?.status;
  if (status === 401) return 'loginRequired';
  if (status === 404 || status === 422) return 'notFound';
  if (status === 410) return 'expired';
  if (status === 403) return 'revoked';
  return 'failed';
}

/** /share/view?token=…: one shared slide, read only, showing what the link's permissions allow (spec §6). */
export default function SharePage() {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [view, setView] = useState<SharedView | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);

  useEffect(() => {
    if (!token) { setFailure('notFound'); return; }
    sharedView(token).then(setView, (e: unknown) => setFailure(failureOf(e)));
  }, [token]);
  useEffect(() => { document.title = `${t('share.page.title')} · DSMS`; }, [t]);

  if (failure) {
    return (
      <div className={s.center} data-testid="share-refused" data-reason={failure} role="alert">
        <Text size={600} weight="semibold">{t(`share.page.${failure}`)}</Text>
        {failure === 'loginRequired'
          ? <Button appearance="primary" onClick={() => { window.location.href = `/login?redirect=${encodeURIComponent(`/share/view?token=${token}`)}`; }}>{t('share.page.signIn')}</Button>
          : (failure === 'expired' || failure === 'revoked') && <Text>{t('share.page.askOwner')}</Text>}
      </div>
    );
  }
  if (!view) return <div className={s.center}><Spinner /></div>;
  const d = view.slide.diagnosis;
  return (
    <div className={s.root} data-testid="share-view">
      <header className={s.bar}>
        <Text size={500} weight="semibold">{view.slide.name}</Text>
        <Text size={200}>{t('share.page.expiresAt', { time: new Date(view.expires_at).toLocaleString(i18n.language) })}</Text>
      </header>
      <div className={s.body}>
        <SharedPane view={view} />
        <aside className={s.side}>
          {view.slide.stain && <Text>{t('share.page.stain')}: {view.slide.stain}</Text>}
          {d && (
            <section data-testid="share-diagnosis">
              <Text weight="semibold" block>{t('share.page.diagnosis')}</Text>
              <Text block>{t('share.page.pathologyNumber')}: {d.pathology_number ?? ''}</Text>
              <Text block>{t('share.page.specimen')}: {d.specimen_name ?? ''}</Text>
              <Text block>{t('share.page.clinicalDiagnosis')}: {d.clinical_diagnosis ?? ''}</Text>
            </section>
          )}
          {view.annotations && (
            <section data-testid="share-annotations">
              <Text weight="semibold" block>{t('share.page.annotations', { count: view.annotations.length })}</Text>
              {view.annotations.length === 0 && <Text block>{t('share.page.noAnnotations')}</Text>}
              {view.annotations.map((a) => <Text key={a.id} block>{a.name || a.type}</Text>)}
            </section>
          )}
        </aside>
      </div>
    </div>
  );
}

function SharedPane({ view }: { view: SharedView }) {
  const s = useStyles();
  const osdEl = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [viewer, setViewer] = useState<SlideViewer | null>(null);
  const [, setFrame] = useState(0);
  const [size, setSize] = useState({ w: 0, h: 0 });

  useEffect(() => {
    const v = new SlideViewer({ element: osdEl.current!, navigator: null, slideId: view.slide.id, tileSource: view.dzi });
    let raf = 0;
    const off = v.onChange(() => { if (!raf) raf = requestAnimationFrame(() => { raf = 0; setFrame((n) => n + 1); }); });
    setViewer(v);
    const el = host.current!;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    return () => { off(); cancelAnimationFrame(raf); ro.disconnect(); v.destroy(); setViewer(null); };
  }, [view.slide.id, view.dzi]);

  return (
    <div ref={host} className={s.pane} data-testid="share-pane" data-settled={viewer?.settled() ? 'true' : 'false'}>
      <div ref={osdEl} className={s.osd} />
      {view.annotations && (
        <AnnotationOverlay matrix={viewer?.imageToElement() ?? null} width={size.w} height={size.h} annotations={view.annotations} draft={null} draftColor="#000000"
          selectedId={null} selecting={false} editable={() => false} mpp={view.slide.mpp} gridUm={null} onSelect={() => undefined} onMove={() => undefined} />
      )}
    </div>
  );
}
