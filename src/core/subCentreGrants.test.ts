import { describe, expect, it } from 'vitest';
import { beyondSubCentre, isAdminRole, SUB_CENTRE_GRANTABLE } from './subCentreGrants';

describe('what a sub-centre may hand out (issue 27)', () => {
  it('keeps the group-wide permissions for administrators', () => {
    for (const code of ['system_role', 'system_menu', 'system_permission', 'system_setting', 'schema_edit', 'log_view', 'label_manage', 'reagent_manage', 'notice_publish']) {
      expect(SUB_CENTRE_GRANTABLE).not.toContain(code);
    }
    // A sub-centre's own administration is its to give, bounded by its hospitals.
    expect(SUB_CENTRE_GRANTABLE).toEqual(expect.arrayContaining(['system_user', 'hospital_config', 'subspecialty_manage', 'case_diagnosis', 'slide_view']));
  });

  it('names what a role holds beyond it, once each, in order', () => {
    expect(beyondSubCentre(['case_view', 'system_role', 'log_view', 'system_role'])).toEqual(['system_role', 'log_view']);
    expect(beyondSubCentre(['case_view', 'slide_annotation_view'])).toEqual([]);
    expect(beyondSubCentre([])).toEqual([]);
  });

  it('knows an administrator role by its code or by its name in either language', () => {
    expect(isAdminRole({ identification: 'admin', name: '随便' })).toBe(true);
    expect(isAdminRole({ identification: 'keeper', name: '管理员' })).toBe(true);
    expect(isAdminRole({ identification: 'keeper', name: '角色维护', en_name: ' Administrator ' })).toBe(true);
    expect(isAdminRole({ identification: 'sub_center_admin', name: '分中心管理员', en_name: 'Sub-centre administrator' })).toBe(false);
    expect(isAdminRole({ identification: 'keeper', name: '角色维护', en_name: null })).toBe(false);
  });
});
