import i18n from '../i18n';
import { api, unwrap } from '../api/client';
import type { EnumOption } from './schemaApi';
import type { LookupName } from '../core/lookupNames';

/**
 * Named option sources (`lookup:<name>` in a schema's `options`) for choices that are neither an enum nor a
 * resource's rows: one loader per name, read fresh each time a select mounts (a workload changes by the minute).
 */
const both = (key: string, params: Record<string, unknown>) =>
  ({ 'zh-CN': i18n.t(key, { ...params, lng: 'zh-CN' }), 'en-US': i18n.t(key, { ...params, lng: 'en-US' }) });

/** `rows`: the ids of the rows an action's prompt acts on (empty elsewhere), for sources that answer per row. */
const sources: Record<LookupName, (rows: readonly (string | number)[]) => Promise<EnumOption[]>> = {
  // SlideLibrary's "Link to teaching library": the external teaching system's libraries, a chapter under its library.
  teaching_libraries: async () => {
    const { data } = await unwrap<{ data: { id: string; name: string; parent_id: string | null }[] }>(api.get('/outer/jiaopei/library', { silent: true }));
    const nameOf = new Map(data.map((l) => [l.id, l.name]));
    return data.map((l) => {
      const text = l.parent_id && nameOf.has(l.parent_id) ? `${nameOf.get(l.parent_id)} › ${l.name}` : l.name;
      return { value: l.id, label: { 'zh-CN': text, 'en-US': text } };
    });
  },
  // CaseDistribution: the first-diagnosis doctors of the working hospital with the cases waiting for them now; for one
  // case, only those who work in its subspecialty directory (the server decides).
  primary_workload: async (cases) => {
    const params = cases.length === 1 ? { case_id: cases[0] } : undefined;
    const doctors = await unwrap<{ id: number; name: string; realname?: string | null; workload: number }[]>(api.get('/pathology/doctors/workload', { params }));
    return doctors.map((d) => ({ value: d.id, label: both('lab.workloadOption', { name: d.realname || d.name, count: d.workload }) }));
  },
  // DssUploaded's bind prompt: the working hospital's glass slides not yet scanned (a label's barcode scanned into the
  // field types the same code), then cases by number for a file that is the scan of no glass slide made here.
  bind_targets: async () => {
    const { glass_slides: glass, cases } = await unwrap<{
      glass_slides: { code: string; stain: string }[]; cases: { pathology_number: string }[];
    }>(api.get('/data/kfb/bind/choices', { silent: true }));
    return [
      ...glass.map((g) => ({ value: g.code, label: both('upload.bindGlassOption', { code: g.code, stain: g.stain }) })),
      ...cases.map((c) => ({ value: c.pathology_number, label: both('upload.bindCaseOption', { number: c.pathology_number }) })),
    ];
  },
  // The hospitals of the group (a specimen transport's sending and receiving hospital), readable by anyone signed in.
  hospitals: async () => {
    const rows = await unwrap<{ id: number; name: string; en_name: string | null }[]>(api.get('/common/hospitals'));
    return rows.map((h) => ({ value: h.id, label: { 'zh-CN': h.name, 'en-US': h.en_name || h.name } }));
    },
  // A consultation's colleague (Consultations' form): the working hospital's active users.
  colleagues: async () => {
    const rows = await unwrap<{ id: number; name: string; realname: string | null }[]>(api.get('/department/consultations/colleagues'));
    return rows.map((u) => ({ value: u.id, label: { 'zh-CN': u.realname || u.name, 'en-US': u.realname || u.name } }));
  },
  // SlideLibrary's put/remove label prompts: the labels, readable with slide_label (the labels resource wants label_manage).
  labels: async () => {
    const rows = await unwrap<{ id: number; name: string; en_name: string | null }[]>(api.get('/config/labels/choices'));
    return rows.map((l) => ({ value: l.id, label: { 'zh-CN': l.name, 'en-US': l.en_name || l.name } }));
  },
};

export const LOOKUP = 'lookup:';
export const loadLookup = (name: string, rows: readonly (string | number)[] = []): Promise<EnumOption[]> => (Object.hasOwn(sources, name) ? sources[name as LookupName](rows) : Promise.resolve([]));
