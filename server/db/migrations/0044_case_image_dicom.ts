import type { Kysely } from 'kysely';

/**
 * Radiology attachments of a case (issue 30, spec §2 /dicom/:pid/:id and §5 "attachments in CR, DR, CT, MRI, DSA, RF,
 * US"): a case image that is a DICOM file keeps what its header says of the series it belongs to, read once when it
 * is tied to the case, so the viewer's series list needs no file read. `modality` null: an ordinary picture.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('case_images').addColumn('modality', 'varchar(16)').execute();
  await db.schema.alterTable('case_images').addColumn('series_uid', 'varchar(64)').execute();
  await db.schema.alterTable('case_images').addColumn('series_number', 'integer').execute();
  await db.schema.alterTable('case_images').addColumn('series_description', 'varchar(200)').execute();
  await db.schema.alterTable('case_images').addColumn('instance_number', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['instance_number', 'series_description', 'series_number', 'series_uid', 'modality']) {
    await db.schema.alterTable('case_images').dropColumn(column).execute();
  }
}
