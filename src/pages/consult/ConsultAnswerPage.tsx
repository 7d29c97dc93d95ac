import { Button, Card, Field, Input, Link, MessageBar, MessageBarBody, Spinner, Text, Textarea, Title2, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { displayText } from '../../api/client';
import { consultationView, OPINION_MAX, sendOpinion, type ConsultationView } from './consultApi';
import './words';

const useStyles = makeStyles({
  root: { maxWidth: '880px', margin: '0 auto', padding: tokens.spacingHorizontalXL, display: 'grid', gap: tokens.spacingVerticalL },
  facts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: tokens.spacingVerticalS },
  card: { display: 'grid', gap: tokens.spacingVerticalM },
  slides: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM },
  center: { position: 'fixed', inset: 0, display: 'grid', placeContent: 'center', justifyItems: 'center', gap: tokens.spacingVerticalM, textAlign: 'center' },
});

/**
 * /consult/answer?token=…: the outside expert's page, reached signed out through a consultation link. It shows the
 * case's clinical information (no patient name), the question and the case's slides (each through its share link,
 * read only), and takes the expert's opinion. The server checks the token, its expiry and the consultation's state on
 * every call and answers in the page's language; its refusal is what this page says.
 */
export default function ConsultAnswerPage() {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const token = useSearchParams()[0].get('token') ?? '';
  const [view, setView] = useState<ConsultationView | null>(null);
  const [refusal, setRefusal] = useState('');
  const [name, setName] = useState('');
  const [opinion, setOpinion] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  useEffect(() => {
    consultationView(token).then((v) => { setView(v); setName(v.expert_name ?? ''); setOpinion(v.opinion ?? ''); },
      (e: unknown) => setRefusal(displayText(e, t('consult.page.failed'))));
  }, [token, t]);
  useEffect(() => { document.title = `${t('consult.page.title')} · DSMS`; }, [t]);

  if (refusal) {
    return (
      <div className={s.center} role="alert" data-testid="consult-refused">
        <Text size={600} weight="semibold">{refusal}</Text>
        <Text>{t('consult.page.askOwner')}</Text>
      </div>
    );
  }
  if (!view) return <div className={s.center}><Spinner /></div>;
  const c = view.case;
  const hospital = (i18n.language === 'en-US' ? c.hospital_en_name || c.hospital_name : c.hospital_name) ?? '';
  const closed = sent && !!view.single_use;
  const submit = async () => {
    setBusy(true);
    try {
      await sendOpinion(token, opinion.trim(), name.trim());
      setSent(true);
    } catch (e) {
      setRefusal(displayText(e, t('consult.page.failed')));
    } finally {
      setBusy(false);
    }
  };
  const fact = (label: string, value: string | null | undefined) => (value ? <Text><b>{label}</b>: {value}</Text> : null);

  return (
    <div className={s.root} lang={i18n.language} data-testid="consult-answer">
      <div>
        <Title2>{t('consult.page.from', { hospital })}</Title2>
        <Text block size={200}>{t('consult.page.validUntil', { time: new Date(view.expires_at).toLocaleString(i18n.language) })}</Text>
      </div>
      <Card className={s.card}>
        <Title3>{t('consult.page.case')}</Title3>
        <div className={s.facts} data-testid="consult-case">
          {fact(t('consult.page.pathologyNumber'), c.pathology_number)}
          {fact(t('consult.page.patient'), [c.gender ? t(`consult.page.gender.${c.gender}`, { defaultValue: c.gender }) : '', c.age !== null ? t(`consult.page.age.${c.age_unit ?? 'year'}`, { n: c.age, defaultValue: String(c.age) }) : ''].filter(Boolean).join(' · '))}
          {fact(t('consult.page.specimen'), c.specimen_name)}
          {fact(t('consult.page.clinicalDiagnosis'), c.clinical_diagnosis)}
          {fact(t('consult.page.department'), c.inspection_department)}
        </div>
        {view.question ? <MessageBar intent="info"><MessageBarBody><b>{t('consult.page.question')}</b>: {view.question}</MessageBarBody></MessageBar> : null}
        <Title3>{t('consult.page.slides')}</Title3>
        <div className={s.slides} data-testid="consult-slides">
          {view.slides.length ? view.slides.map((sl) => (
            <Link key={sl.id} href={sl.path} target="_blank" rel="noopener noreferrer" data-slide={sl.id}>{t('consult.page.openSlide')}: {sl.name}{sl.stain ? ` (${sl.stain})` : ''}</Link>
          )) : <Text>{t('consult.page.noSlides')}</Text>}
        </div>
      </Card>
      <Card className={s.card}>
        {sent ? <MessageBar intent="success" data-testid="consult-sent"><MessageBarBody>{t('consult.page.sent')}{view.single_use ? '' : ` ${t('consult.page.revise')}`}</MessageBarBody></MessageBar> : null}
        <Field label={t('consult.page.yourName')}>
          <Input value={name} maxLength={64} disabled={closed} onChange={(_, d) => setName(d.value)} data-field="expert_name" />
        </Field>
        <Field label={t('consult.page.opinion')} required hint={t('consult.page.opinionHint', { max: OPINION_MAX })}>
          <Textarea value={opinion} maxLength={OPINION_MAX} rows={8} resize="vertical" disabled={closed} onChange={(_, d) => setOpinion(d.value)} data-field="opinion" />
        </Field>
        {closed ? null : (
          <div><Button appearance="primary" disabled={busy || !opinion.trim()} onClick={() => void submit()} data-action="send-opinion">{t('consult.page.submit')}</Button></div>
        )}
      </Card>
    </div>
  );
}
