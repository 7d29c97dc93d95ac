import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SessionUser } from '../../http/types.js';

export interface LoggedSlide { id: number; name: string; case_id: number | null; file_path: string }

/** Slide operations go to section_logs (the LogSection page), one row per slide; the detail defaults to the file. */
export async function logSlides(db: Kysely<Database>, action: string, slides: LoggedSlide[], user: SessionUser | null, detail?: string): Promise<void> {
  if (!slides.length) return;
  const now = new Date().toISOString();
  await db.insertInto('section_logs').values(slides.map((s) => ({
    slide_id: s.id, slide_name: s.name, case_id: s.case_id, user_id: user?.id ?? null, username: user?.name ?? null,
    action, detail: detail ?? s.file_path, created_at: now,
  }))).execute();
}
