import { isAdmin } from './admin.js';

/**
 * What a manager who is not an administrator (a sub-centre's administrator, spec §6) may hand out: the one list
 * every path that gives users roles (user create and update) or edits roles (create, rename, permissions) checks.
 *
 * It holds the work of a hospital, each bounded by the hospital and subspecialty scopes (cases, slides, scanning,
 * QC, meetings, messages, its prices and figures), and the sub-centre's own administration, bounded by its
 * hospitals (its users, its hospital row, its subspecialty directories). Left out is whatever reaches the whole
 * group: roles, menus, permissions, settings, page schemas, the logs, the group's labels and reagents, notices.
 * A role holding anything else is an administrator's to give, as the administrator role is.
 */
export const SUB_CENTRE_GRANTABLE: readonly string[] = Object.freeze([
  'case_view', 'case_register', 'case_sample', 'case_production', 'case_diagnosis', 'case_allocation', 'case_id_update',
  'case_delete', 'case_apply', 'case_order', 'attachment_upload', 'clinical_report_view',
  'slide_view', 'slide_collect', 'slide_delete', 'slide_download', 'slide_annotation_view', 'slide_upload', 'upload_bind_any',
  'slide_label', 'teaching_bind',
  'scan_access', 'scanner_operate', 'qc_manage', 'meeting_manage', 'message_send',
  'price_manage', 'income_view', 'export_data_role',
  'system_user', 'hospital_config', 'subspecialty_manage',
  // The department modules (issue 32): a sub-centre's own archive, borrow orders, attendance and duty rosters.
  'borrow_view', 'borrow_apply', 'borrow_lend', 'archive_view', 'archive_manage', 'attendance_view', 'attendance_manage',
  // Its logistics (its own transports and those sent to it), report deliveries and follow-ups.
  'logistics_view', 'logistics_send', 'logistics_sign', 'delivery_view', 'delivery_manage', 'follow_view', 'follow_manage',
  // Its own consultations (asked of its colleagues or of outside experts through a link).
  'consult_view', 'consult_request', 'consult_answer',
  // The department modules (issue 32): a sub-centre's own archive and borrow orders.
  'borrow_view', 'borrow_apply', 'borrow_lend', 'archive_view', 'archive_manage',
  // … and its own assets, warehouses, consumables and stock (rows of its hospital, schemas/resources/*.json scope).
  'asset_view', 'asset_repair', 'asset_manage', 'consumable_view', 'stock_record', 'consumable_manage',
  // Teaching and exams: a hospital's own teaching library and exams (every table hospital-scoped).
  'teaching_view', 'teaching_manage', 'exam_manage', 'exam_take',
]);

const GRANTABLE = new Set(SUB_CENTRE_GRANTABLE);

/** The permissions of `permissions` a sub-centre may not hand out, in their given order, once each. */
export function beyondSubCentre(permissions: readonly string[]): string[] {
  return [...new Set(permissions.filter((p) => !GRANTABLE.has(p)))];
}

/** What names a role: its code and its names in both languages. */
export interface RoleFacts {
  identification: string;
  name: string;
  en_name?: string | null;
}

/** A role whose holders are administrators (src/core/admin.ts): by its code, or by its name in either language. */
export function isAdminRole(role: RoleFacts): boolean {
  return isAdmin({ identification: [role.identification], roleNames: role.en_name ? [role.name, role.en_name] : [role.name] });
}
