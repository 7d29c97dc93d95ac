import type { Generated } from 'kysely';

/** Slides and what hangs on them: sections, annotations, shares, labels, collections, teaching-library links. */

/** `file_size` comes back from PostgreSQL's bigint as a string; read it through Number(). */
export interface SlideTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number | null;
  name: string;
  /** Relative to the storage of this hospital area (null: the installation's default storage). */
  file_path: string;
  area_id: Generated<number | null>;
  file_size: number | string;
  md5: string | null;
  vendor: string | null;
  width: number | null;
  height: number | null;
  levels: number | null;
  mpp: number | null;
  objective_power: number | null;
  scan_at: string | null;
  tile_size: number | null;
  /** 'ingesting' from bind until its ingest job has read the file; nothing of it is served before. */
  status: 'ingesting' | 'ready' | 'needs_conversion' | 'converting' | 'error';
  has_label: number;
  has_macro: number;
  /** Why the UI must qualify this slide (experimental reader, why it needs conversion); null when nothing. */
  format_note: string | null;
  /** 0–100 while a background job (ingest, conversion) works on the slide; null otherwise. */
  progress: number | null;
  uploaded_by: number | null;
  created_at: string;
  updated_at: string;
}

/** A glass slide cut from a case's wax block (block-section, stain), bound to its scanned file once scanned. */
export interface SlideSectionTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number;
  block_number: string;
  section_number: number;
  stain: string;
  label: string | null;
  slide_id: number | null;
  created_by: number | null;
  created_at: string;
  /** The wax block it was cut from (0015), when made in the lab; `outside`: 1 for a slide sent in from another hospital. */
  block_id?: number | null;
  outside?: Generated<number>;
}

/** Shapes drawn on a slide in the viewer (migration 0013); `points` is JSON in level-0 image pixels. */
export interface SlideAnnotationTable {
  id: Generated<number>;
  slide_id: number;
  hospital_id: number;
  user_id: number;
  username: string | null;
  type: string;
  points: string;
  name: string;
  description: string;
  color: string;
  classification: string;
  length_um: number | null;
  area_um2: number | null;
  perimeter_um: number | null;
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface SlideShareTable {
  id: Generated<number>;
  token_hash: string;
  slide_id: number;
  hospital_id: number;
  created_by: number;
  permissions: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
  /** The user it was sent to (told by a system message), if any (migration 0035). */
  recipient_id?: number | null;
}

/** A label on a slide (migration 0026b, issue 16): by hand or by the automatic labelling. */
export interface SlideLabelTable {
  id: Generated<number>;
  hospital_id: number;
  slide_id: number;
  label_id: number;
  source: 'manual' | 'auto';
  created_by: number | null;
  created_at: string;
}

/** A pathologist's own favourites folder (spec §3 collection categories). */
export interface CollectionCategoryTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  rank: number;
  created_at: string;
  updated_at: string;
}

/** A slide a user collected; category_id null means uncategorised. One row per user and slide. */
export interface CollectionTable {
  id: Generated<number>;
  user_id: number;
  category_id: number | null;
  slide_id: number;
  remark: string | null;
  created_at: string;
}

/** A slide linked to an external teaching library (migration 0032, outer/jiaopei/bind). */
export interface TeachingLinkTable {
  id: Generated<number>;
  hospital_id: number;
  slide_id: number;
  library_id: string;
  library_name: string;
  /** What the library calls the slide it keeps. */
  external_id: string;
  bound_by: number | null;
  bound_at: string;
}
