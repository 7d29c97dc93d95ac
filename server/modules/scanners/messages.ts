/** API messages of scanners and scans (issue 16), in both languages. */
export const scannerMessages = {
  'scanner.key_invalid': { 'zh-CN': '扫描仪密钥无效或已吊销', 'en-US': 'The scanner key is invalid or revoked' },
  'scanner.not_found': { 'zh-CN': '扫描仪不存在', 'en-US': 'Scanner not found' },
  'scanner.scan_not_found': { 'zh-CN': '扫描任务不存在', 'en-US': 'Scan not found' },
  'scanner.scan_finished': { 'zh-CN': '扫描任务已结束', 'en-US': 'This scan has already finished' },
  'scanner.path_needs_scanned': { 'zh-CN': '只有扫描成功的任务才能提交切片文件', 'en-US': 'Only a scan that succeeded can hand in a slide file' },
  'qc.reason_required': { 'zh-CN': '不合格的切片须选择至少一个原因', 'en-US': 'An unqualified slide needs at least one reason' },
  'qc.reason_unknown': { 'zh-CN': '未知的质控原因', 'en-US': 'Unknown QC reason' },
  'qc.changed': { 'zh-CN': '该切片的质控已被他人修改，请刷新后重试', 'en-US': 'Someone else changed this slide\'s QC meanwhile; reload and try again' },
} as const;
