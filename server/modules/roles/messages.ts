/** API messages of the roles resource, in both languages. */
export const roleMessages = {
  'role.admin_not_yours': { 'zh-CN': '只有系统管理员可以创建或修改管理员角色（标识为 admin 或名称为管理员的角色）', 'en-US': 'Only a system administrator can create or change an administrator role (coded admin, or named like administrator)' },
  'role.permission_not_yours': { 'zh-CN': '只有系统管理员可以为角色授予分中心不能授予的权限：{{permissions}}', 'en-US': 'Only a system administrator can give a role {{permissions}}, which a sub-centre cannot hand out' },
} as const;
