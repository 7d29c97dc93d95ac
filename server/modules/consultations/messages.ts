/** API messages of consultations (issue 32), in both languages. */
export const consultationMessages = {
  'consultation.case_unknown': { 'zh-CN': '本院没有该病理号的病例', 'en-US': 'No case of the working hospital has this pathology number' },
  'consultation.colleague_unknown': { 'zh-CN': '受邀医生不存在、已停用或不属于本院', 'en-US': 'The colleague does not exist, is disabled, or is not in this hospital' },
  'consultation.opinion_by_answer': { 'zh-CN': '会诊意见只能通过“填写会诊意见”提交', 'en-US': 'An opinion is given by answering the consultation, not by editing it' },
  'consultation.edit_closed': { 'zh-CN': '会诊已答复或已撤回，不能再修改', 'en-US': 'An answered or withdrawn consultation can no longer be edited' },
  'consultation.link_remote_only': { 'zh-CN': '只有待答复的远程会诊可以生成会诊链接', 'en-US': 'Only a remote consultation awaiting its answer has a consultation link' },
  'consultation.link_not_found': { 'zh-CN': '会诊链接不存在', 'en-US': 'Consultation link not found' },
  'consultation.link_expired': { 'zh-CN': '会诊链接已过期', 'en-US': 'This consultation link has expired' },
  'consultation.link_closed': { 'zh-CN': '该会诊已答复或已撤回，链接不再可用', 'en-US': 'This consultation has been answered or withdrawn; the link is closed' },
} as const;
