/** API messages of background jobs and slide conversion, in both languages. */
export const jobMessages = {
  'job.ingesting': { 'zh-CN': '正在读取文件（校验和、尺寸与层级）', 'en-US': 'Reading the file (checksum, size and levels)' },
  'job.thumbnail': { 'zh-CN': '正在生成缩略图', 'en-US': 'Making the thumbnail' },
  'job.converting': { 'zh-CN': '正在转换为金字塔 TIFF', 'en-US': 'Converting to a pyramidal TIFF' },
  'job.indexing': { 'zh-CN': '正在读取转换结果并生成缩略图', 'en-US': 'Reading the converted file and making the thumbnail' },
  'job.interrupted': { 'zh-CN': '任务多次中断（服务器在处理时停止），已放弃', 'en-US': 'The job was interrupted too often (the server stopped while running it) and was given up' },
  'job.time_limit': { 'zh-CN': '任务超过时间限制（{{seconds}} 秒），已停止', 'en-US': 'The job ran past its time limit ({{seconds}} s) and was stopped' },
  'job.status_queued': { 'zh-CN': '排队中', 'en-US': 'Queued' },
  'job.status_running': { 'zh-CN': '进行中', 'en-US': 'Running' },
  'job.status_done': { 'zh-CN': '已完成', 'en-US': 'Done' },
  'job.status_failed': { 'zh-CN': '失败', 'en-US': 'Failed' },
  'slide.vips_missing': {
    'zh-CN': '服务器未安装 libvips 命令行工具，无法转换此切片；请安装 libvips-tools（Debian/Ubuntu：apt-get install libvips-tools）后重启服务',
    'en-US': 'The server lacks the libvips command line tools needed to convert this slide; install libvips-tools (Debian/Ubuntu: apt-get install libvips-tools) and restart the server',
  },
  'slide.not_convertible': { 'zh-CN': '此切片格式无法转换', 'en-US': 'This slide format cannot be converted' },
  'slide.zip_unsafe_path': { 'zh-CN': '压缩包含有不安全的路径或链接，已拒绝', 'en-US': 'The zip holds unsafe paths or links and was refused' },
  'slide.zip_too_large': { 'zh-CN': '压缩包解压后过大（文件过多或压缩比异常），已拒绝', 'en-US': 'The zip would unpack too large (too many files or an abnormal compression ratio) and was refused' },
  'slide.zip_not_slide': { 'zh-CN': '压缩包中没有可转换的 MRXS 或 VMS 切片', 'en-US': 'The zip holds no MRXS or VMS slide to convert' },
  'slide.processing': {
    'zh-CN': '该切片仍在处理中（读取或转换尚未完成），请稍后再试',
    'en-US': 'This slide is still being processed (reading or conversion has not finished); try again shortly',
  },
  'slide.conversion_failed': { 'zh-CN': '切片转换失败：{{error}}', 'en-US': 'Converting the slide failed: {{error}}' },
} as const;
