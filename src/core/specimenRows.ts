/** One specimen as the registration form edits it and the register command takes it (spec §3). */
export interface SpecimenRow {
  name?: string;
  specimen_type?: number;
  fixative?: string;
  fixed_at?: string;
  location?: string;
  leave_body_at?: string;
}

const KEYS: (keyof SpecimenRow)[] = ['name', 'specimen_type', 'fixative', 'fixed_at', 'location', 'leave_body_at'];

export const blankSpecimen = (): SpecimenRow => ({});

/** The form value as specimen rows: objects only, known keys only ('' and null dropped). */
export function specimenRows(value: unknown): SpecimenRow[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)).map((v) => {
    const row: SpecimenRow = {};
    for (const k of KEYS) {
      const x = v[k];
      if (x === undefined || x === null || x === '') continue;
      (row as Record<string, unknown>)[k] = k === 'specimen_type' ? Number(x) : String(x);
    }
    return row;
  });
}

/** Row `i` with `key` set (an emptied value removes the key, so nothing empty is sent). */
export function setSpecimen(rows: readonly SpecimenRow[], i: number, key: keyof SpecimenRow, value: unknown): SpecimenRow[] {
  return rows.map((r, j) => {
    if (j !== i) return r;
    const { [key]: _old, ...rest } = r;
    return value === undefined || value === null || value === '' ? rest : { ...rest, [key]: value };
  });
}
