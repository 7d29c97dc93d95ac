import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Untyped } from './untyped.js';
import { virtualReads } from './virtual-read.js';

const db = new Kysely<Untyped>({ dialect: { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new SqliteIntrospector(k), createQueryCompiler: () => new SqliteQueryCompiler() } });

describe('virtual fields read with each row', () => {
  it('answers only the fields marked read, through every hop of their join, one value each', () => {
    const def = {
      table: 'teaching_slides',
      virtual: {
        slide_name: { type: 'string' as const, filter: true as const, read: true, via: { table: 'slides', key: 'id', column: 'name', local: 'slide_id' } },
        pathology_number: { type: 'string' as const, filter: true as const, read: true, via: { table: 'slides', key: 'id', column: 'case_id', local: 'slide_id', then: { table: 'cases', key: 'id', column: 'pathology_number' } } },
        patient: { type: 'string' as const, filter: true as const, via: { table: 'slides', key: 'id', column: 'case_id', local: 'slide_id' } },
      },
    };
    const { sql } = db.selectFrom('teaching_slides').select('teaching_slides.id').select((eb) => virtualReads(eb, def)).compile();
    expect(sql).toBe('select "teaching_slides"."id", '
      + '(select "vr_slide_name_0"."name" from "slides" as "vr_slide_name_0" where "vr_slide_name_0"."id" = "teaching_slides"."slide_id" limit ?) as "slide_name", '
      + '(select "vr_pathology_number_1"."pathology_number" from "cases" as "vr_pathology_number_1" where "vr_pathology_number_1"."id" = '
      + '(select "vr_pathology_number_0"."case_id" from "slides" as "vr_pathology_number_0" where "vr_pathology_number_0"."id" = "teaching_slides"."slide_id" limit ?) limit ?) as "pathology_number" '
      + 'from "teaching_slides"');
  });
});
