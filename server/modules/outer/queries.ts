import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import type { SecretBox } from '../../security/sealed-secrets.js';
import { parseTeachingSetting, type TeachingLibraryAdapter, type TeachingLibraryEntry, type TeachingLibrarySetting } from './teaching-library.js';

/**
 * Kept in the settings table under a key the generic settings API does not declare (settings/declared.ts), so its
 * token is read only here: outer/jiaopei/config answers it as ***.
 */
const SETTING_KEY = 'teaching_library';

export async function loadTeachingSetting(db: Db): Promise<TeachingLibrarySetting | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', SETTING_KEY).executeTakeFirst();
  return row ? parseTeachingSetting(row.value) : null;
}

export async function saveTeachingSetting(db: Db, setting: TeachingLibrarySetting, secrets: SecretBox): Promise<void> {
  // The token is stored sealed (security/sealed-secrets.ts); an unchanged one arrives sealed already and stays so.
  const value = JSON.stringify({ ...setting, api_token: secrets.seal(setting.api_token) });
  const updated_at = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('settings').where('key', '=', SETTING_KEY).execute();
    await trx.insertInto('settings').values({ key: SETTING_KEY, value, is_public: 0, updated_at }).execute();
  });
}

export interface ScopedSlide { id: number; hospital_id: number; name: string; case_id: number | null; pathology_number: string | null; specimen_name: string | null }

/** Of `ids`, the slides of the given hospitals, with what the teaching library is told of them. */
export async function slidesInScope(db: Db, ids: number[], hospitalIds: number[]): Promise<ScopedSlide[]> {
  if (!ids.length || !hospitalIds.length) return [];
  return db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id')
    .select(['slides.id', 'slides.hospital_id', 'slides.name', 'slides.case_id', 'cases.pathology_number', 'cases.specimen_name'])
    .where('slides.id', 'in', ids).where('slides.hospital_id', 'in', hospitalIds).orderBy('slides.id').execute();
}

/**
 * Sends the slides not yet linked to the library and records the links the library confirmed. The library is asked
 * first and the links written after: a refusal there leaves nothing here. Two requests racing for one slide both
 * reach the library (its bind is keyed by our slide id) and the unique index keeps one link.
 */
export async function linkSlides(
  db: Db, library: TeachingLibraryAdapter, entry: TeachingLibraryEntry, slides: ScopedSlide[], by: { userId: number; publicUrl: string },
): Promise<{ linked: { slide_id: number; external_id: string }[]; already: number[] }> {
  const existing = await db.selectFrom('teaching_links').select('slide_id').where('library_id', '=', entry.id)
    .where('slide_id', 'in', slides.map((s) => s.id)).execute();
  const already = new Set(existing.map((r) => r.slide_id));
  const todo = slides.filter((s) => !already.has(s.id));
  if (!todo.length) return { linked: [], already: [...already] };
  const answer = await library.bind(entry.id, todo.map((s) => ({
    slide_id: s.id, name: s.name, pathology_number: s.pathology_number, specimen_name: s.specimen_name,
    viewer_url: new URL(`/kfb/${s.case_id ?? 0}/${s.id}`, by.publicUrl).href,
  })));
  const confirmed = todo.flatMap((s) => {
    const hit = answer.find((a) => a.slide_id === s.id);
    return hit ? [{ slide: s, external_id: hit.external_id }] : [];
  });
  if (confirmed.length !== todo.length) throw new AppError(502, 'teaching.rejected', { status: 'incomplete' });
  const bound_at = new Date().toISOString();
  await db.insertInto('teaching_links').values(confirmed.map(({ slide, external_id }) => ({
    hospital_id: slide.hospital_id, slide_id: slide.id, library_id: entry.id, library_name: entry.name, external_id, bound_by: by.userId, bound_at,
  }))).onConflict((oc) => oc.columns(['slide_id', 'library_id']).doNothing()).execute();
  return { linked: confirmed.map((c) => ({ slide_id: c.slide.id, external_id: c.external_id })), already: [...already] };
}
