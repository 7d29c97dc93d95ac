import { Badge, Caption1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, fromStored } from '../../core/dateTime';
import { httpDataProvider } from '../../engine/dataProvider';
import { useChoices } from '../../engine/options';
import './words';

const useStyles = makeStyles({
  list: { display: 'grid', gap: tokens.spacingVerticalS },
  item: { display: 'grid', gap: tokens.spacingVerticalXXS, paddingBlock: tokens.spacingVerticalXS, borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
  head: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  opinion: { whiteSpace: 'pre-wrap' },
});

/** The consultations resource (schemas/resources/consultations.json): its rows are the case's opinions. */
const CONSULTATIONS = { route: '/api/department/consultations' };

interface Consultation {
  id: number; mode: string; status: string; question: string | null; opinion: string | null;
  author: string | null; consultant_name: string | null; expert_name: string | null; answered_at: string | null;
}

/**
 * "Opinions on this case": the case's consultations as the resource lists them (the user's hospital and directories,
 * server side), newest first, each with who was asked, its state and, once answered, who said what and when.
 * Read only: requests and answers are the Consultations page's steps and the expert's link.
 */
export function CaseOpinions({ caseId }: { caseId: number }) {
  const s = useStyles();
  const { t } = useTranslation();
  const mode = useChoices('consultation_mode');
  const status = useChoices('consultation_status');
  const [rows, setRows] = useState<Consultation[] | null>(null);
  useEffect(() => {
    let live = true;
    httpDataProvider.getList(CONSULTATIONS, { equals: { case_id: caseId }, pagination: { current: 1, pageSize: 100 }, sorters: [{ field: 'id', order: 'desc' }] }, { silent: true, showAllData: false })
      .then((r) => { if (live) setRows(r.data as unknown as Consultation[]); }, () => { if (live) setRows([]); });
    return () => { live = false; };
  }, [caseId]);
  const word = (choices: typeof mode, v: string) => choices.find((c) => c.value === v)?.label ?? v;
  const when = (v: string | null) => { const d = fromStored(v); return d ? formatDateTime(d) : ''; };

  if (!rows) return null;
  if (!rows.length) return <Caption1 data-testid="case-opinions" data-count={0}>{t('consult.panel.none')}</Caption1>;
  return (
    <div className={s.list} data-testid="case-opinions" data-count={rows.length}>
      {rows.map((r) => (
        <div key={r.id} className={s.item} data-consultation={r.id} data-status={r.status}>
          <div className={s.head}>
            <Badge appearance="tint" color={r.mode === 'remote' ? 'important' : 'brand'}>{word(mode, r.mode)}</Badge>
            <Badge appearance="outline" color={r.status === 'answered' ? 'success' : r.status === 'requested' ? 'warning' : 'informative'}>{word(status, r.status)}</Badge>
            <Caption1>{r.status === 'answered' ? t('consult.panel.by', { who: r.author ?? '—', when: when(r.answered_at) }) : t('consult.panel.asked', { who: r.consultant_name ?? r.expert_name ?? '—' })}</Caption1>
          </div>
          {r.question ? <Caption1>{t('consult.panel.question', { text: r.question })}</Caption1> : null}
          {r.opinion ? <Text className={s.opinion} data-testid="opinion-text">{r.opinion}</Text> : null}
        </div>
      ))}
    </div>
  );
}
