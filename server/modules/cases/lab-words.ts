/**
 * Phase, step and status words of the lab (spec §1, §4) in both languages, for what the server itself writes
 * out: refusals naming the stage a case is at, and exported spreadsheets. The browser has its own copy in
 * its i18n namespace; unknown words (a hospital's own rule may invent them) are shown as they are.
 */
export const labWords = {
  'lab.word.apply': { 'zh-CN': '申请', 'en-US': 'Applied' },
  'lab.word.registration': { 'zh-CN': '登记', 'en-US': 'Registration' },
  'lab.word.sample': { 'zh-CN': '取材', 'en-US': 'Sampling' },
  'lab.word.slide_making': { 'zh-CN': '制片', 'en-US': 'Slide making' },
  'lab.word.diagnosis': { 'zh-CN': '诊断', 'en-US': 'Diagnosis' },
  'lab.word.archive': { 'zh-CN': '归档', 'en-US': 'Archive' },
  'lab.word.application_0': { 'zh-CN': '已申请', 'en-US': 'Applied' },
  'lab.word.application_1': { 'zh-CN': '已派送', 'en-US': 'Dispatched' },
  'lab.word.application_2': { 'zh-CN': '已接收', 'en-US': 'Received' },
  'lab.word.application_3': { 'zh-CN': '已登记', 'en-US': 'Registered' },
  'lab.word.application_-1': { 'zh-CN': '已拒收', 'en-US': 'Rejected' },
  'lab.word.to_receive': { 'zh-CN': '待接收', 'en-US': 'To receive' },
  'lab.word.rejected': { 'zh-CN': '已拒收', 'en-US': 'Rejected' },
  'lab.word.to_sample': { 'zh-CN': '待取材', 'en-US': 'To sample' },
  'lab.word.dehydration': { 'zh-CN': '脱水', 'en-US': 'Dehydration' },
  'lab.word.embeded': { 'zh-CN': '包埋', 'en-US': 'Embedding' },
  'lab.word.cut': { 'zh-CN': '切片', 'en-US': 'Cutting' },
  'lab.word.stain': { 'zh-CN': '染色', 'en-US': 'Staining' },
  'lab.word.cover': { 'zh-CN': '封片', 'en-US': 'Covering' },
  'lab.word.to_allot': { 'zh-CN': '待分配', 'en-US': 'To allot' },
  'lab.word.to_first': { 'zh-CN': '待初诊', 'en-US': 'To first diagnosis' },
  'lab.word.to_audit': { 'zh-CN': '待复诊', 'en-US': 'To review' },
  'lab.word.to_sign': { 'zh-CN': '待签发', 'en-US': 'To sign' },
  'lab.word.draft': { 'zh-CN': '草稿', 'en-US': 'Draft' },
  'lab.word.to_print': { 'zh-CN': '待打印', 'en-US': 'To print' },
  'lab.word.to_send': { 'zh-CN': '待发送', 'en-US': 'To send' },
  'lab.word.sent': { 'zh-CN': '已发送', 'en-US': 'Sent' },
  'lab.word.filed': { 'zh-CN': '已归档', 'en-US': 'Filed' },
  'lab.word.routine': { 'zh-CN': '常规', 'en-US': 'Routine' },
  'lab.word.frozen': { 'zh-CN': '冰冻', 'en-US': 'Frozen' },
  'lab.word.cell': { 'zh-CN': '细胞', 'en-US': 'Cytology' },
  'lab.word.outside': { 'zh-CN': '外院', 'en-US': 'Outside hospital' },
  'lab.word.ex_specimen': { 'zh-CN': '外院标本会诊', 'en-US': 'Consultation: specimen' },
  'lab.word.ex_paraffin_block': { 'zh-CN': '外院蜡块会诊', 'en-US': 'Consultation: wax block' },
  'lab.word.ex_slide': { 'zh-CN': '外院切片会诊', 'en-US': 'Consultation: slide' },
} as const;

/** A word as a message parameter: translated when known (translate() reads `msg:` parameters), else as it is. */
export const wordParam = (word: string | null | undefined): string => {
  const key = `lab.word.${word ?? ''}`;
  return Object.hasOwn(labWords, key) ? `msg:${key}` : word ?? '';
};
