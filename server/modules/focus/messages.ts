/** API messages of the focus check, scanners and quality control (issue 16), in both languages. */
export const focusMessages = {
  'job.focus_check': { 'zh-CN': '正在进行自动焦点检查', 'en-US': 'Running the automatic focus check' },
  'focus.slide_not_ready': { 'zh-CN': '切片尚未就绪，无法进行焦点检查', 'en-US': 'The slide is not ready; the focus check cannot run' },
  'focus.not_checked': { 'zh-CN': '该切片尚未完成焦点检查', 'en-US': 'This slide has not been focus-checked yet' },
} as const;
