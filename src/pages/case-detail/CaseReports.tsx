import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDateTime, fromStored } from '../../core/dateTime';
import { LabTable } from './LabTable';
import type { CaseReport } from './labApi';

const when = (v: string | null) => { const d = fromStored(v); return d ? formatDateTime(d) : ''; };

/**
 * The case's reports (its report and supplementary ones): kind, where each stands, the diagnosis, when it was signed
 * and sent; an issued one opens its PDF, and a diagnosing doctor opens the editor (both in this tab, signed in).
 */
export function CaseReports({ caseId, reports, kind, stage, canDiagnose }: {
  caseId: number; reports: CaseReport[]; kind(v: number): string; stage(v: string): string; canDiagnose: boolean;
}) {
  const { t } = useTranslation();
  // Issued (past the hesitation period) or an accepted supplementary one: its document exists.
  const issued = (r: CaseReport) => r.release_status === 'yes' || (r.report_type === 2 && r.sub_phase === 'accept');
  const pdf = (r: CaseReport) => `/pdf?file=${encodeURIComponent(`/api/diagnosis/reports/${r.id}/pdf`)}`;
  return (
    <LabTable<CaseReport> testId="reports" rows={reports} columns={[
      { key: 'kind', label: t('lab.detail.reportKind'), render: (r) => kind(r.report_type) },
      { key: 'stage', label: t('lab.detail.reportProgress'), render: (r) => stage(r.stage) },
      { key: 'diagnosis', label: t('lab.detail.diagnosis'), render: (r) => r.diagnosis ?? '' },
      { key: 'signed', label: t('lab.detail.signedAt'), render: (r) => when(r.sign_at) },
      { key: 'sent', label: t('lab.detail.sentAt'), render: (r) => when(r.deliver_at) },
      {
        key: 'open', label: t('lab.detail.pdf'), render: (r) => (
          <>
            {issued(r) ? <Link to={pdf(r)} data-testid={`report-pdf-${r.id}`}>{t('lab.detail.openPdf')}</Link> : null}
            {canDiagnose ? <>{issued(r) ? ' · ' : ''}<Link to={`/diagnosis/${caseId}`}>{t('lab.detail.openEditor')}</Link></> : null}
          </>
        ),
      },
    ]} />
  );
}
