/** API messages of teaching and exams (server/modules/exams), in both languages. */
export const examMessages = {
  'exam.not_found': { 'zh-CN': '考试不存在，或不属于您所在的医院', 'en-US': 'The exam does not exist or belongs to a hospital you do not work in' },
  'exam.attempt_not_found': { 'zh-CN': '答卷不存在', 'en-US': 'The attempt does not exist' },
  'exam.answer_not_found': { 'zh-CN': '作答不存在', 'en-US': 'The answer does not exist' },
  'exam.not_published': { 'zh-CN': '该考试未发布或已结束，不能作答', 'en-US': 'The exam is not published or has closed; it cannot be taken' },
  'exam.no_questions': { 'zh-CN': '该考试还没有题目', 'en-US': 'The exam has no questions yet' },
  'exam.no_attempts_left': { 'zh-CN': '您已用完该考试的作答次数（{{max}} 次）', 'en-US': 'You have used every attempt this exam allows ({{max}})' },
  'exam.time_up': { 'zh-CN': '考试时间已到（截止于 {{ends_at}}），不能再作答', 'en-US': 'The time is up (it ended at {{ends_at}}); answers are no longer taken' },
  'exam.already_submitted': { 'zh-CN': '该答卷已交卷', 'en-US': 'This attempt has been submitted already' },
  'exam.not_submitted': { 'zh-CN': '答卷尚未交卷，不能评分', 'en-US': 'The attempt has not been submitted; it cannot be scored yet' },
  'exam.question_unknown': { 'zh-CN': '该题目不属于此考试', 'en-US': 'The question is not one of this exam' },
  'exam.choice_unknown': { 'zh-CN': '请选择题目给出的选项之一', 'en-US': 'Choose one of the question\'s options' },
  'exam.not_free_text': { 'zh-CN': '选择题自动评分，不能手工评分', 'en-US': 'Choice questions are scored automatically, not by hand' },
  'exam.score_range': { 'zh-CN': '得分须在 0 到 {{points}} 之间', 'en-US': 'The score must be between 0 and {{points}}' },
  'exam.not_draft': { 'zh-CN': '考试已发布，不能再修改（当前：{{status}}）', 'en-US': 'The exam has been published; it can no longer be changed (now: {{status}})' },
} as const;
