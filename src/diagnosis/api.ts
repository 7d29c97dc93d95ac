import { api, unwrap } from '../api/client';
import type { DraftText } from '../core/reportDraft';
import type { Order } from '../pages/case-detail/labApi';

/** A report as GET /api/diagnosis/{case} answers it (server/modules/diagnosis/editor-data.ts). */
export interface Report extends Partial<DraftText> {
  id: number; case_id: number; version: number; report_type: number; supplement_type: number | null; sub_phase: string; is_draft: number; release_status: string;
  images: number[]; return_reason: string | null; returned_count: number; issue_at: string | null; sign_at: string | null; print_at: string | null; deliver_at: string | null;
  follow_up: string | null; evaluation: string; delay_status: string | null;
  first_doctor_name: string | null; audit_doctor_name: string | null; sign_doctor_name: string | null;
}

export interface EditorData {
  case: Record<string, unknown> & { id: number; main_phase: string; sub_phase: string | null; pathology_number: string; patient_name: string | null; gender: string | null; age: number | null; age_unit: string | null; case_status: string; expedite_status: number; hospital_id: number };
  specimens: { id: number; name: string; status: string }[];
  /** `description`: what gross sampling wrote of the block's specimen (a new report's gross description starts from it). */
  blocks: { id: number; block_number: string; specimen_id: number | null; description: string | null }[];
  slides: { id: number; name: string; status: string }[];
  images: { id: number; title: string; slide_id: number | null }[];
  orders: Order[];
  report: Report | null;
  supplementary: Report[];
  workflow: { levels: string[]; hesitation_minutes: number };
}

export interface TemplateNode { id: number; name: string; parent_id: number | null; gross_description: string | null; microscopic: string | null; diagnosis: string | null; advice: string | null; children: TemplateNode[] }
export interface Phrase { id: number; text: string; category: string | null }

export const loadEditor = (caseId: number) => unwrap<EditorData>(api.get(`/diagnosis/${caseId}`));
export const loadTemplates = () => unwrap<TemplateNode[]>(api.get('/diagnosis/templates'));
export const loadPhrases = () => unwrap<Phrase[]>(api.get('/diagnosis/phrases'));
export const createReport = (caseId: number, text: DraftText) => unwrap<Report>(api.post(`/diagnosis/${caseId}/reports`, { report_type: 1, ...text }));
export const saveReport = (id: number, version: number, body: Partial<DraftText> & { images?: number[] }) =>
  unwrap<Report>(api.put(`/diagnosis/reports/${id}`, { version, ...body }, { allowMultiple: true, silent: true }));
export const runAction = (id: number, action: string, version: number, extra: { reason?: string; issue?: 'now' | 'later' } = {}) =>
  unwrap<Report>(api.post(`/diagnosis/reports/${id}/actions/${action}`, { version, ...extra }));
export const setUrgent = (caseId: number, urgent: boolean) => unwrap<unknown>(api.post(`/diagnosis/${caseId}/urgent`, { urgent }));
export const setFlags = (id: number, version: number, flags: { follow_up?: string | null; evaluation?: string }) => unwrap<Report>(api.patch(`/diagnosis/reports/${id}/flags`, { version, ...flags }));
export const previewPage = (id: number, page = 1) => api.get(`/diagnosis/reports/${id}/preview`, { params: { page }, responseType: 'blob' }).then((r) => r.data as Blob);
export const pdfFile = (id: number) => api.get(`/diagnosis/reports/${id}/pdf`, { responseType: 'blob' }).then((r) => r.data as Blob);
/**
 * The next case after `caseId` at the same stage (sub_phase of the diagnosis phase), in pathology order, through the
 * case list API (the server scopes it to the doctor's hospital and permissions); null when there is none.
 */
export const nextCaseAt = (caseId: number, stage: string) => unwrap<{ data: { id: number }[] }>(api.get('/pathology/lists', {
  params: {
    page: 1, page_size: 1, sort_by: JSON.stringify({ id: 'asc' }),
    params: JSON.stringify({ main_phase: 'diagnosis', sub_phase: stage }),
    filter: JSON.stringify([{ column: 'id', operator: '>', value: caseId, condition: 'and' }]),
  },
})).then((page) => page.data[0]?.id ?? null);
