import i18n from '../i18n';
import { api, unwrap } from '../api/client';
import type { EnumOption } from './schemaApi';

/**
 * Named option sources (`lookup:<name>` in a schema's `options`) for choices that are neither an enum nor a
 * resource's rows: one loader per name, read fresh each time a select mounts (a workload changes by the minute).
 */
const both = (key: string, params: Record<string, unknown>) =>
  ({ 'zh-CN': i18n.t(key, { ...params, lng: 'zh-CN' }), 'en-US': i18n.t(key, { ...params, lng: 'en-US' }) });

const sources: Record<string, () => Promise<EnumOption[]>> = {
  // CaseDistribution: the first-diagnosis doctors of the working hospital with the cases waiting for them now.
  primary_workload: async () => {
    const rows = await unwrap<{ id: number; name: string; realname?: string | null; workload: number }[]>(api.get('/pathology/doctors/workload'));
    return rows.map((d) => ({ value: d.id, label: both('lab.workloadOption', { name: d.realname || d.name, count: d.workload }) }));
  },
};

export const LOOKUP = 'lookup:';
export const loadLookup = (name: string): Promise<EnumOption[]> => sources[name]?.() ?? Promise.resolve([]);
