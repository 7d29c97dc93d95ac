/** API messages of reading meetings, in both languages. */
export const meetingMessages = {
  'meeting.not_found': { 'zh-CN': '会议不存在', 'en-US': 'Meeting not found' },
  'meeting.ended': { 'zh-CN': '会议已结束', 'en-US': 'This meeting has ended' },
  'meeting.control_held': { 'zh-CN': '{{name}} 正在主讲，请等待其交还控制权', 'en-US': '{{name}} is presenting; wait until control is handed back' },
  'meeting.control_changed': { 'zh-CN': '控制权刚刚被他人取得，请重试', 'en-US': 'Someone else took control a moment ago; try again' },
  'meeting.not_presenter': { 'zh-CN': '只有主讲人可以执行此操作', 'en-US': 'Only the presenter may do this' },
  'meeting.not_joined': { 'zh-CN': '请先加入会议', 'en-US': 'Join the meeting first' },
  'meeting.slide_not_in_meeting': { 'zh-CN': '该切片不在本次会议中', 'en-US': 'That slide is not part of this meeting' },
  'meeting.slides_unknown': { 'zh-CN': '以下切片不存在或不属于本院：{{ids}}', 'en-US': 'These slides do not exist or belong to another hospital: {{ids}}' },
  'meeting.name_empty': { 'zh-CN': '请填写会议名称', 'en-US': 'Enter a meeting name' },
  'meeting.start_invalid': { 'zh-CN': '会议时间格式不正确', 'en-US': 'The meeting time is not a valid date and time' },
} as const;
