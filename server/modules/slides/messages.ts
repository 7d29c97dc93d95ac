/** API messages of slides and tiles, in both languages. */
export const slideMessages = {
  'slide.not_found': { 'zh-CN': '切片信息未找到', 'en-US': 'Slide information not found' },
} as const;
