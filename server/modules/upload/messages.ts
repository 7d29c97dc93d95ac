/** API messages of the chunked upload (spec §4, §7, §9), in both languages. */
export const uploadMessages = {
  'upload.failed': { 'zh-CN': '上传出错', 'en-US': 'Upload failed' },
} as const;
