import { api, unwrap } from '../../api/client';

/** What GET /api/pathology/{id}/lab answers: the case with its derived status and what the lab made of it. */
export interface LabCase {
  id: number;
  pathology_number: string;
  case_type: string;
  patient_name: string | null;
  gender: string | null;
  age: number | null;
  inspection_department: string | null;
  inspection_doctor: string | null;
  registration_at: string | null;
  main_phase: string;
  sub_phase: string | null;
  case_status: string;
  /** Palette colours the hospital's case-status rule gives the number and the status box (spec §4). */
  number_colour?: string | null;
  status_colour?: string | null;
  /** Spec §3 fields without a column and the fields the hospital added to cases (JSON text). */
  extra?: string | Record<string, unknown> | null;
  /** The hospital the case belongs to, in both languages. */
  hospital_name?: string | null;
  hospital_en_name?: string | null;
  /** Every other column registration stored (id number, phone, clinical diagnosis …): RegisteredFields reads them by name. */
  [field: string]: unknown;
}
export interface Specimen { id: number; seq: number; name: string; status: string; rejection_reason: string | null }
export interface Block { id: number; specimen_id: number; block_number: string; tissue_count: number | null; description?: string | null; outside: number }
export interface Section { id: number; block_id: number | null; block_number: string; section_number: number; stain: string | null; label: string | null; slide_id: number | null }
export interface Order {
  id: number;
  category: string;
  order_type: string;
  status: string;
  note: string | null;
  block_id?: number | null;
  specimen_id?: number | null;
  quantity?: number | null;
  reagent_name?: string | null;
  ordered_by_realname?: string | null;
  ordered_by_name?: string | null;
}
export interface Reagent { id: number; name: string; type: string | null; clone_no: string | null }
export interface OrderDraft {
  category: 'special' | 'additional';
  order_type: string;
  block_id?: number;
  specimen_id?: number;
  reagent_id?: number;
  quantity?: number;
  note?: string;
}
export interface TimelineRow {
  id: number;
  action: string;
  actor_name: string;
  from_phase: string | null;
  from_sub_phase: string | null;
  to_phase: string | null;
  to_sub_phase: string | null;
  created_at: string;
}
/** A digital slide of the case (the scanned file), bound to a glass slide when a section names it. */
export interface DigitalSlide { id: number; name: string; status: string; vendor: string | null; scan_at: string | null; objective_power: number | null }
/** One of the case's reports, with where it stands in the case-status rules' words (`stage`). */
export interface CaseReport {
  id: number;
  report_type: number;
  sub_phase: string;
  release_status: string;
  diagnosis: string | null;
  sign_at: string | null;
  deliver_at: string | null;
  stage: string;
}
export interface Lab {
  case: LabCase;
  specimens: Specimen[];
  blocks: Block[];
  sections: Section[];
  orders: Order[];
  timeline: TimelineRow[];
  slides: DigitalSlide[];
  reports: CaseReport[];
}
export interface Label { id: number; code: string; lines: string[]; svg: string }
export type LabelKind = 'cassette' | 'slide';

export const loadLab = (id: number) => unwrap<Lab>(api.get(`/pathology/${id}/lab`));

/** A lifecycle command (receive, reject, sample, make-slides): the server checks state and role, and answers the case. */
export const command = (id: number, name: string, body: Record<string, unknown>) =>
  unwrap<LabCase>(api.post(`/pathology/${id}/${name}`, body, { allowMultiple: true }));

/** Stores a picture as an image of the case: the file as an attachment (POST /api/upload/image), then tied to the case. */
export async function addCaseImage(id: number, file: Blob & { name?: string }, title: string): Promise<number> {
  const form = new FormData();
  form.append('file', file, file.name || 'photo.jpg');
  const { path } = await unwrap<{ path: string }>(api.post('/upload/image', form));
  return (await unwrap<{ id: number }>(api.post(`/cases/${id}/images`, { path, title: title.slice(0, 200) }))).id;
}

export const loadLabels = (id: number, kind: LabelKind, symbology: 'code128' | 'datamatrix') =>
  unwrap<Label[]>(api.get(`/pathology/${id}/labels`, { params: { kind, symbology } }));

export const logPrint = (id: number, kind: LabelKind, ids: number[], reprint: boolean) =>
  unwrap<{ printed: number }>(api.post(`/pathology/${id}/labels/print`, { kind, ids, reprint }, { allowMultiple: true }));

/** The reagents a special examination may name (GET /api/pathology/order-reagents, case_order). */
export const loadReagents = () => unwrap<Reagent[]>(api.get('/pathology/order-reagents', { silent: true }));

/** Places a batch of orders; silent: the order panel shows the server's refusal (spec §5) beside the form. */
export const placeOrders = (id: number, orders: OrderDraft[]) =>
  unwrap<LabCase>(api.post(`/pathology/${id}/orders`, { orders }, { allowMultiple: true, silent: true }));
