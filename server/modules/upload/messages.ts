/** API messages of the chunked upload and attachments (spec §4, §7, §9), in both languages. */
export const uploadMessages = {
  'upload.failed': { 'zh-CN': '上传出错', 'en-US': 'Upload failed' },
  'upload.not_multipart': { 'zh-CN': '请以 multipart/form-data 格式上传文件', 'en-US': 'Send the file as multipart/form-data' },
  'upload.blob_missing': { 'zh-CN': '缺少文件分片（blob）', 'en-US': 'The chunk (blob) is missing' },
  'upload.file_missing': { 'zh-CN': '缺少上传的文件（file）', 'en-US': 'No file was sent (file)' },
  'upload.file_name_invalid': {
    'zh-CN': '文件名不合法：不能为空，不能包含 / \\ 或控制字符，且不超过 255 字节',
    'en-US': 'Invalid file name: it must not be empty, contain / \\ or control characters, or exceed 255 bytes',
  },
  'upload.num_invalid': { 'zh-CN': '分片序号 num 必须是 1 到 total_num 之间的整数', 'en-US': 'num must be a whole number from 1 to total_num' },
  'upload.total_num_invalid': { 'zh-CN': '分片总数 total_num 必须是 1 到 {{max}} 之间的整数', 'en-US': 'total_num must be a whole number from 1 to {{max}}' },
  'upload.total_size_invalid': {
    'zh-CN': '文件大小 total_size 必须是整数，且与分片总数 total_num 相符',
    'en-US': 'total_size must be a whole number that agrees with total_num',
  },
  'upload.md5_invalid': { 'zh-CN': '{{field}} 必须是 32 位十六进制 MD5 值', 'en-US': '{{field}} must be a 32-digit hexadecimal MD5' },
  'upload.chunk_size_invalid': {
    'zh-CN': '第 {{num}} 个分片大小为 {{size}} 字节，应为 {{expected}} 字节',
    'en-US': 'Chunk {{num}} has {{size}} bytes; expected {{expected}}',
  },
  'upload.chunk_too_large': { 'zh-CN': '分片大小不能超过 {{max}}', 'en-US': 'A chunk may not exceed {{max}}' },
  'upload.chunk_md5_mismatch': {
    'zh-CN': '第 {{num}} 个分片 MD5 校验失败，数据在传输中可能已损坏，请重新上传该分片',
    'en-US': 'Chunk {{num}} failed its MD5 check and may have been damaged in transit; send it again',
  },
  'upload.file_md5_mismatch': {
    'zh-CN': '文件“{{file}}”合并后 MD5 校验失败，已丢弃本次上传的全部分片，请重新上传',
    'en-US': 'The assembled file "{{file}}" failed its MD5 check; all its chunks were discarded, please upload it again',
  },
  'upload.file_too_large': { 'zh-CN': '文件大小不能超过 {{max}}', 'en-US': 'The file may not exceed {{max}}' },
  'upload.image_too_large': { 'zh-CN': '文件大小不能超过 {{max}}，未保存', 'en-US': 'File size at most {{max}}; the file was not saved' },
  'upload.not_yours': {
    'zh-CN': '只能绑定自己在当前医院上传的文件：{{path}}',
    'en-US': 'You can bind only files you uploaded yourself in the hospital you are working in: {{path}}',
  },
  'upload.attachment_quota': {
    'zh-CN': '附件空间已满：每位用户最多 {{quota}}，已用 {{used}}，本文件未保存',
    'en-US': 'Attachment space is full: at most {{quota}} per user, {{used}} used; the file was not saved',
  },
  'upload.disk_full': {
    'zh-CN': '服务器存储空间不足，本次上传未保存，请联系管理员清理空间后重试',
    'en-US': 'The server is out of storage space and the upload was not saved; ask the administrator to free space, then try again',
  },
} as const;
