import { api, unwrap } from '../../api/client';

/** What GET /api/consultation/view answers (server/modules/consultations/routes.ts). */
export interface ConsultationView {
  case: {
    pathology_number: string; gender: string | null; age: number | null; age_unit: string | null; specimen_name: string | null;
    clinical_diagnosis: string | null; inspection_department: string | null; hospital_name: string | null; hospital_en_name: string | null;
  };
  question: string | null; expert_name: string | null; expert_unit: string | null; expires_at: string;
  status: string; single_use: number; opinion: string | null;
  slides: { id: number; name: string; stain: string | null; path: string }[];
}

/** The most an opinion may hold (the resource's opinion column, schemas/resources/consultations.json). */
export const OPINION_MAX = 4000;

export const consultationView = (token: string) => unwrap<ConsultationView>(api.get('/consultation/view', { params: { token }, silent: true }));

export const sendOpinion = (token: string, opinion: string, expertName: string) =>
  unwrap<{ status: string; answered_at: string }>(api.post('/consultation/opinion', { token, opinion, ...(expertName ? { expert_name: expertName } : {}) }));
