import type { Language } from '../../i18n/translate.js';

/** The fixed words printed on a report, in the report's language (the hospital's words; not API messages). */
const WORDS = {
  title: { 'zh-CN': '病理诊断报告书', 'en-US': 'Pathology Report' },
  supplementary: { 'zh-CN': '补充报告', 'en-US': 'Supplementary report' },
  pathology_number: { 'zh-CN': '病理号', 'en-US': 'Pathology no.' },
  patient_name: { 'zh-CN': '姓名', 'en-US': 'Patient' },
  gender: { 'zh-CN': '性别', 'en-US': 'Sex' },
  age: { 'zh-CN': '年龄', 'en-US': 'Age' },
  department: { 'zh-CN': '送检科室', 'en-US': 'Department' },
  inspection_doctor: { 'zh-CN': '送检医生', 'en-US': 'Requesting doctor' },
  specimen: { 'zh-CN': '标本', 'en-US': 'Specimen' },
  clinical_diagnosis: { 'zh-CN': '临床诊断', 'en-US': 'Clinical diagnosis' },
  gross_description: { 'zh-CN': '肉眼所见', 'en-US': 'Gross description' },
  microscopic: { 'zh-CN': '镜下所见', 'en-US': 'Microscopic findings' },
  diagnosis: { 'zh-CN': '病理诊断', 'en-US': 'Diagnosis' },
  advice: { 'zh-CN': '建议', 'en-US': 'Advice' },
  postscript: { 'zh-CN': '附注', 'en-US': 'Postscript' },
  first_doctor: { 'zh-CN': '初诊医生', 'en-US': 'First diagnosis' },
  audit_doctor: { 'zh-CN': '审核医生', 'en-US': 'Audited by' },
  sign_doctor: { 'zh-CN': '签发医生', 'en-US': 'Signed by' },
  sign_at: { 'zh-CN': '报告日期', 'en-US': 'Report date' },
  not_signed: { 'zh-CN': '未签发（预览）', 'en-US': 'Not signed (preview)' },
  verify: { 'zh-CN': '扫码验证报告真伪', 'en-US': 'Scan to verify this report' },
  female: { 'zh-CN': '女', 'en-US': 'Female' },
  male: { 'zh-CN': '男', 'en-US': 'Male' },
  year: { 'zh-CN': '岁', 'en-US': ' y' },
  month: { 'zh-CN': '月', 'en-US': ' m' },
  day: { 'zh-CN': '天', 'en-US': ' d' },
  genuine: { 'zh-CN': '报告真实有效，内容未被修改', 'en-US': 'This report is genuine and unchanged' },
  altered: { 'zh-CN': '报告内容与签发时不一致', 'en-US': 'This report differs from what was signed' },
  recalled: { 'zh-CN': '报告已撤回，尚未签发', 'en-US': 'This report was recalled and is not signed' },
  verify_title: { 'zh-CN': '病理报告验证', 'en-US': 'Pathology report verification' },
  hospital: { 'zh-CN': '医院', 'en-US': 'Hospital' },
  // Issue 27: signed reports are fixed documents.
  supplements: { 'zh-CN': '本报告补充 {{date}} 签发的病理报告（验证码 {{code}}）', 'en-US': 'This report supplements the pathology report signed on {{date}} (verification code {{code}})' },
  supplemented_diagnosis: { 'zh-CN': '原报告病理诊断', 'en-US': 'Diagnosis of the supplemented report' },
  unfrozen: { 'zh-CN': '本报告签发于系统保存签发文件之前，此文件按当前数据生成，可能与签发时不同', 'en-US': 'Signed before signed documents were kept: this copy is rendered from current data and may differ from what was signed' },
  superseded: { 'zh-CN': '该次签发已撤回，此验证码不再代表有效报告', 'en-US': 'This signing was recalled: this code no longer stands for a valid report' },
  document_sha256: { 'zh-CN': '报告文件 SHA-256（{{language}}）', 'en-US': 'Report file SHA-256 ({{language}})' },
} as const;

export type ReportWord = keyof typeof WORDS;
export const reportWord = (lang: Language, key: ReportWord) => WORDS[key][lang];

/** A word with `{{name}}` placeholders filled. */
export const reportPhrase = (lang: Language, key: ReportWord, params: Record<string, string>) =>
  reportWord(lang, key).replace(/\{\{(\w+)\}\}/g, (_m, name: string) => params[name] ?? '');
