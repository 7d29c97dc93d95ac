import type { Db } from '../../../db/connect.js';

/**
 * What a DICOM export says of the slide besides its pixels: whose it is (the case's patient and order), which glass
 * slide it is the scan of and the tissue on it, and the hospital that issued those identifiers. Read through the
 * request's row-scoped handle, so an export carries nothing of a case the user may not see.
 */
export interface ExportSubject {
  slide: { name: string; createdAt: string | null };
  hospital: { code: string; name: string } | null;
  case: ExportCase | null;
  glassSlide: ExportGlassSlide | null;
}

export interface ExportCase {
  pathologyNumber: string;
  patientName: string | null;
  gender: string | null;
  age: number | null;
  ageUnit: string | null;
  idNumber: string | null;
  admissionNumber: string | null;
  outpatientNumber: string | null;
  inspectionDoctor: string | null;
  specimenName: string | null;
  registrationAt: string | null;
  /** When the case was made: dates the study when it was never registered (the same for each of its slides). */
  createdAt?: string | null;
}

export interface ExportGlassSlide {
  block: string;
  section: number;
  stain: string;
  /** The text or barcode printed on the glass label, when one was given (else the code labels carry). */
  label: string | null;
  /** The name of the specimen its block was cut from, when the block records one. */
  specimenName: string | null;
}

/** The subject of slide `slideId` as the request may see it; the slide itself was checked by the caller. */
export async function exportSubject(db: Db, slideId: number): Promise<ExportSubject> {
  const slide = await db.selectFrom('slides').leftJoin('hospitals', 'hospitals.id', 'slides.hospital_id')
    .select(['slides.name', 'slides.case_id', 'slides.created_at', 'hospitals.code', 'hospitals.name as hospital_name'])
    .where('slides.id', '=', slideId).executeTakeFirstOrThrow();
  const row = slide.case_id === null ? undefined : await db.selectFrom('cases')
    .select(['pathology_number', 'patient_name', 'gender', 'age', 'age_unit', 'id_number', 'admission_number', 'outpatient_number',
      'inspection_doctor', 'specimen_name', 'registration_at', 'created_at'])
    .where('id', '=', slide.case_id).executeTakeFirst();
  const section = row ? await db.selectFrom('slide_sections')
    .leftJoin('case_blocks', 'case_blocks.id', 'slide_sections.block_id')
    .leftJoin('case_specimens', 'case_specimens.id', 'case_blocks.specimen_id')
    .select(['slide_sections.block_number', 'slide_sections.section_number', 'slide_sections.stain', 'slide_sections.label', 'case_specimens.name as specimen_name'])
    .where('slide_sections.slide_id', '=', slideId).orderBy('slide_sections.id').executeTakeFirst() : undefined;
  return {
    slide: { name: slide.name, createdAt: slide.created_at },
    hospital: slide.code && slide.hospital_name ? { code: slide.code, name: slide.hospital_name } : null,
    case: row ? {
      pathologyNumber: row.pathology_number, patientName: row.patient_name, gender: row.gender, age: row.age, ageUnit: row.age_unit,
      idNumber: row.id_number, admissionNumber: row.admission_number, outpatientNumber: row.outpatient_number,
      inspectionDoctor: row.inspection_doctor, specimenName: row.specimen_name, registrationAt: row.registration_at,
      createdAt: row.created_at,
    } : null,
    glassSlide: section ? {
      block: section.block_number, section: Number(section.section_number), stain: section.stain, label: section.label, specimenName: section.specimen_name,
    } : null,
  };
}
