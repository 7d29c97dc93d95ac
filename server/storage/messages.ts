export const storageMessages = {
  'storage.not_found': { 'zh-CN': '存储中不存在该文件：{{key}}', 'en-US': 'The file does not exist in storage: {{key}}' },
  'storage.bad_key': { 'zh-CN': '存储路径无效：{{key}}', 'en-US': 'Invalid storage path: {{key}}' },
  'storage.range_too_large': { 'zh-CN': '一次读取的范围过大（最多 {{max}} 字节）', 'en-US': 'The range read at once is too large (at most {{max}} bytes)' },
  'storage.object_too_large': { 'zh-CN': '文件超过存储允许的大小（最多 {{max}} 字节）', 'en-US': 'The file is larger than storage allows (at most {{max}} bytes)' },
  'storage.exists': { 'zh-CN': '存储中已有该文件：{{key}}', 'en-US': 'The file already exists in storage: {{key}}' },
} as const;
