import { reportingWrites } from '../resources/hooks/reporting.js';
import type { ResourceHooks } from '../resources/hooks/types.js';
import type { RuleResolver } from '../../src/core/rules.js';
import { hospitalAreaHooks, hospitalHooks } from './areas/hooks.js';
import { applicationHooks } from './cases/application-hooks.js';
import { caseHooks } from './cases/hooks.js';
import { clinicalReportHooks } from './clinical/hooks.js';
import { numberingRuleHooks } from './cases/numbering-hooks.js';
import { categoryHooks, collectionHooks } from './collections/hooks.js';
import { priceItemHooks } from './prices/hooks.js';
import { qcDictHooks } from './qc/dict-hooks.js';
import { slideQcHooks } from './qc/hooks.js';
import { rolesHooks } from './roles/hooks.js';
import { slideHooks } from './slides/hooks.js';
import type { AreaStorages } from '../storage/area-storages.js';
import { usersHooks } from './users/hooks.js';
import { consultationHooks } from './consultations/hooks.js';
import { examHooks, examQuestionHooks, teachingSlideHooks } from './exams/hooks.js';

export interface ResourceHookOptions {
  /** Where slide files are (the default storage, DATA_DIR or STORAGE_URL, and the hospital areas'): deleted slides take theirs with them. */
  areas: AreaStorages;
  /** A user was written or deleted: this process drops their cached sessions at once. */
  onUserChanged(userId: number): void;
  /** A role was written or deleted: any cached session may hold it. */
  onRoleChanged(): void;
  /** The hospital's rule sets, for the case status derived on every case read. */
  caseRules(hospitalId: number): Promise<RuleResolver>;
}

/**
 * Each module registers here the hooks its resources name in schemas/resources (`"hooks": "users"`); the
 * generic resource layer calls them and knows no module (it depends one way).
 */
export function resourceHooks(options: ResourceHookOptions) {
  return {
    users: reportingWrites(usersHooks, (ids) => ids.forEach((id) => options.onUserChanged(id))),
    roles: reportingWrites(rolesHooks, () => options.onRoleChanged()),
    cases: caseHooks(options.caseRules),
    numbering_rules: numberingRuleHooks,
    collection_categories: categoryHooks,
    collections: collectionHooks,
    slides: slideHooks(options.areas),
    price_items: priceItemHooks,
    qc_dict: qcDictHooks,
    clinical_reports: clinicalReportHooks,
    applications: applicationHooks,
    slide_qc: slideQcHooks,
    hospital_areas: hospitalAreaHooks,
    hospitals: hospitalHooks,
    consultations: consultationHooks,
    exams: examHooks,
    exam_questions: examQuestionHooks,
    teaching_slides: teachingSlideHooks,
  } satisfies Record<string, ResourceHooks>;
}
