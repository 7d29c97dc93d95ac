/**
 * Brings a new case to diagnosis / to_first through the lab's own commands (register → receive → sample → the
 * five slide-making steps → distribute to the first-diagnosis doctor), as the API and e2e diagnosis tests need it.
 * `send` runs one request as one demo user and answers the JSON body's data (throwing on anything but 200).
 */
export type Send = (who: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) => Promise<Record<string, unknown>>;

export const SLIDE_STEPS = ['dehydration', 'embeded', 'cut', 'stain', 'cover'];

/** `specimens`: the case's specimens and what gross sampling writes of each (default: one, undescribed). */
export async function caseAtFirstDiagnosis(send: Send, primaryId: number, patient: Record<string, unknown> = { patient_name: '王秀英', gender: 'female', age: 61, age_unit: 'year' },
  specimens: { name: string; gross?: string }[] = [{ name: '胃窦活检' }]): Promise<number> {
  const created = await send('registrar', 'POST', '/api/pathology/register', { ...patient, specimens: specimens.map((s) => ({ name: s.name, fixative: '10% NBF' })) });
  const caseId = Number(created.id);
  await send('registrar', 'POST', `/api/pathology/${caseId}/receive`, {});
  const lab = await send('registrar', 'GET', `/api/pathology/${caseId}/lab`) as { specimens: { id: number; name: string }[] };
  const gross = (name: string) => specimens.find((s) => s.name === name)?.gross;
  await send('sampler', 'POST', `/api/pathology/${caseId}/sample`, {
    blocks: lab.specimens.map((s) => ({ specimen_id: s.id, ...(gross(s.name) ? { description: gross(s.name) } : {}) })),
  });
  for (const step of SLIDE_STEPS) await send('technician', 'POST', `/api/pathology/${caseId}/make-slides`, { step });
  const moved = await send('allocator', 'POST', `/api/pathology/${caseId}/distribute`, { doctor_id: primaryId });
  if (moved.sub_phase !== 'to_first') throw new Error(`case ${caseId} is at ${String(moved.sub_phase)}, not to_first`);
  return caseId;
}
