import { resourceMessages } from '../resources/messages.js';
import { caseMessages } from '../modules/cases/messages.js';
import { labMessages } from '../modules/cases/lifecycle-messages.js';
import { labWords } from '../modules/cases/lab-words.js';
import { collectionMessages } from '../modules/collections/messages.js';
import { slideMessages } from '../modules/slides/messages.js';
import { storageMessages } from '../storage/messages.js';
import { dicomMessages } from '../modules/slides/dicom/messages.js';
import { uploadMessages } from '../modules/upload/messages.js';
import { ruleMessages } from '../modules/schemas/messages.js';
import { jobMessages } from '../modules/jobs/messages.js';
import { annotationMessages } from '../modules/annotations/messages.js';
import { shareMessages } from '../modules/shares/messages.js';
import { consultationMessages } from '../modules/consultations/messages.js';
import { caseImageMessages } from '../modules/case-images/messages.js';
import { messageMessages } from '../modules/messages/messages.js';
import { diagnosisMessages } from '../modules/diagnosis/messages.js';
import { focusMessages } from '../modules/focus/messages.js';
import { scannerMessages } from '../modules/scanners/messages.js';
import { statisticMessages } from '../modules/statistics/messages.js';
import { priceMessages } from '../modules/prices/messages.js';
import { meetingMessages } from '../modules/meetings/messages.js';
import { qrLoginMessages } from '../modules/qr-login/messages.js';
import { qcDictMessages } from '../modules/qc/dict-messages.js';
import { hospitalCopyMessages } from '../modules/hospital-copy/messages.js';
import { ssoMessages } from '../modules/sso/messages.js';
import { webauthnMessages } from '../modules/webauthn/messages.js';
import { outerMessages } from '../modules/outer/messages.js';
import { roleMessages } from '../modules/roles/messages.js';
import { iiifMessages } from '../modules/tiles/messages.js';
import { hl7Messages } from '../modules/hl7/messages.js';
import { areaMessages } from '../modules/areas/messages.js';
import { dicomwebMessages } from '../modules/dicomweb/messages.js';
import { examMessages } from '../modules/exams/messages.js';

/**
 * Every message the API sends, in both languages. Keys are stable; tests and clients may rely on them.
 * A domain keeps its own messages beside its code (server/modules/<domain>/messages.ts) and is spread in here.
 */
const coreMessages = {
  'ok': { 'zh-CN': '操作成功', 'en-US': 'OK' },
  'error.internal': { 'zh-CN': '服务器内部错误，请稍后重试或联系管理员', 'en-US': 'Internal server error; try again later or contact the administrator' },
  'error.not_found': { 'zh-CN': '请求的资源不存在', 'en-US': 'The requested resource does not exist' },
  'error.route_not_found': { 'zh-CN': '接口不存在：{{path}}', 'en-US': 'No such API: {{path}}' },
  'error.unauthenticated': { 'zh-CN': '登录已失效，请重新登录', 'en-US': 'Your session has expired; please log in again' },
  'error.forbidden': { 'zh-CN': '没有权限执行此操作（需要权限：{{permission}}）', 'en-US': 'You do not have permission for this action (requires: {{permission}})' },
  'access.outside_scope': { 'zh-CN': '无权在该医院或亚专科目录下写入数据', 'en-US': 'You may not write data of that hospital or subspecialty directory' },
  'error.validation': { 'zh-CN': '提交的数据不正确', 'en-US': 'The submitted data is not valid' },
  'error.field_invalid': { 'zh-CN': '{{field}} 的值不正确：{{reason}}', 'en-US': '{{field}} is not valid: {{reason}}' },
  'error.field_required': { 'zh-CN': '{{field}} 为必填项', 'en-US': '{{field}} is required' },
  'error.too_large': { 'zh-CN': '请求内容过大', 'en-US': 'The request is too large' },
  'error.rate_limited': { 'zh-CN': '操作过于频繁，请稍后再试', 'en-US': 'Too many requests; please wait and try again' },
  'error.bad_request': { 'zh-CN': '请求格式不正确', 'en-US': 'The request is malformed' },
  'error.nul_character': { 'zh-CN': '{{field}} 含有空字符（\\0），不能接受', 'en-US': '{{field}} holds a NUL character (\\0), which is not accepted' },
  'error.not_finite': { 'zh-CN': '{{field}} 的数值过大，不是有效的数字', 'en-US': '{{field}} is too large to be a number' },
  'error.too_deep': { 'zh-CN': '提交的数据嵌套过深（最多 {{depth}} 层）', 'en-US': 'The submitted data is nested too deeply (at most {{depth}} levels)' },
  'auth.challenge_invalid': { 'zh-CN': '登录凭据已过期或已使用，请刷新后重试', 'en-US': 'The login challenge has expired or was already used; refresh and try again' },
  'auth.password_undecryptable': { 'zh-CN': '密码无法解密，请刷新页面后重试', 'en-US': 'The password could not be decrypted; reload the page and try again' },
  'auth.wrong_credentials': { 'zh-CN': '用户名或密码错误', 'en-US': 'Wrong user name or password' },
  'auth.login_locked': { 'zh-CN': '密码错误次数过多，账号已锁定，请 {{minutes}} 分钟后再试或联系管理员解锁', 'en-US': 'Too many wrong passwords: the account is locked; try again in {{minutes}} minutes or ask an administrator to unlock it' },
  'auth.user_disabled': { 'zh-CN': '账号已停用，请联系管理员', 'en-US': 'This account is disabled; contact the administrator' },
  'auth.user_locked': { 'zh-CN': '账号已被管理员锁定，请联系管理员', 'en-US': 'This account was locked by an administrator; contact the administrator' },
  'auth.user_expired': { 'zh-CN': '账号已过期，请联系管理员', 'en-US': 'This account has expired; contact the administrator' },
  'auth.screen_locked': { 'zh-CN': '屏幕已锁定，请输入密码解锁', 'en-US': 'The screen is locked; enter your password to unlock it' },
  'auth.hospital_not_allowed': { 'zh-CN': '您不属于该医院', 'en-US': 'You do not belong to that hospital' },
  'account.old_password_wrong': { 'zh-CN': '当前密码错误', 'en-US': 'The current password is wrong' },
  'user.not_found': { 'zh-CN': '用户不存在', 'en-US': 'User not found' },
  'user.hospital_required': { 'zh-CN': '请为用户选择至少一个所属医院', 'en-US': 'Choose at least one hospital for the user' },
  'user.subspecialty_not_yours': { 'zh-CN': '只能授予您所管理医院的亚专科目录：{{ids}}', 'en-US': 'You can only grant subspecialty directories of the hospitals you manage: {{ids}}' },
  'user.subspecialty_unknown': { 'zh-CN': '以下亚专科目录不存在：{{ids}}', 'en-US': 'These subspecialty directories do not exist: {{ids}}' },
  'user.subspecialty_other_hospital': { 'zh-CN': '亚专科目录须属于该用户所在的医院：{{ids}}', 'en-US': 'Subspecialty directories must belong to one of the user’s hospitals: {{ids}}' },
  'case.subspecialty_not_yours': { 'zh-CN': '只能将病例归入您所在的亚专科目录', 'en-US': 'You can only file cases under your own subspecialty directories' },
  'case.subspecialty_unknown': { 'zh-CN': '亚专科目录不存在或不属于本院', 'en-US': 'The subspecialty directory does not exist or belongs to another hospital' },
  'user.hospital_not_yours': { 'zh-CN': '只能分配您所管理的医院（分中心）', 'en-US': 'You can only assign the hospitals (sub-centres) you manage' },
  'user.admin_role_not_yours': { 'zh-CN': '只有系统管理员可以授予管理员角色', 'en-US': 'Only a system administrator can grant an administrator role' },
  'user.role_not_grantable': { 'zh-CN': '只有系统管理员可以授予角色“{{role}}”：它含有分中心不能授予的权限 {{permissions}}', 'en-US': 'Only a system administrator can grant the role “{{role}}”: it holds {{permissions}}, which a sub-centre cannot hand out' },
  'user.own_roles': { 'zh-CN': '不能修改自己的角色，请联系系统管理员', 'en-US': 'You cannot change your own roles; ask a system administrator' },
  'setting.key_required': { 'zh-CN': '请提供设置项名称 settings_key', 'en-US': 'settings_key is required' },
  'setting.not_found': { 'zh-CN': '设置项 {{key}} 不存在', 'en-US': 'Setting {{key}} does not exist' },
} as const;

export const messages = { ...coreMessages, ...resourceMessages, ...uploadMessages, ...slideMessages, ...storageMessages, ...dicomMessages, ...caseMessages, ...collectionMessages, ...ruleMessages, ...jobMessages, ...labMessages, ...labWords, ...annotationMessages, ...caseImageMessages, ...messageMessages, ...shareMessages, ...consultationMessages, ...diagnosisMessages, ...focusMessages, ...scannerMessages, ...statisticMessages, ...priceMessages, ...meetingMessages, ...ssoMessages, ...qrLoginMessages, ...qcDictMessages, ...webauthnMessages, ...hospitalCopyMessages, ...outerMessages, ...roleMessages, ...iiifMessages, ...hl7Messages, ...areaMessages, ...dicomwebMessages, ...examMessages };

export type MessageKey = keyof typeof messages;
