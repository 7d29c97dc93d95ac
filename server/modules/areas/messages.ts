/** API messages of hospital areas (issue 29), in both languages. */
export const areaMessages = {
  'area.storage_invalid': {
    'zh-CN': '存储位置无效：请填写服务器上的绝对目录（如 /srv/dsms/east）或 s3://存储桶/前缀',
    'en-US': 'Invalid storage location: enter an absolute directory on the server (such as /srv/dsms/east) or s3://bucket/prefix',
  },
  'area.storage_not_absolute': {
    'zh-CN': '存储目录须为绝对路径（以 / 开头，且不能是根目录）',
    'en-US': 'The storage directory must be an absolute path (starting with /, not the root itself)',
  },
  'area.storage_in_use': {
    'zh-CN': '该院区已有切片存放在此位置，不能更改存储位置',
    'en-US': 'Slides are already stored in this area’s location, so it cannot change',
  },
  'area.queue_required': { 'zh-CN': '请至少填写一个任务队列名称', 'en-US': 'Enter at least one job queue name' },
  'area.queue_too_many': { 'zh-CN': '任务队列名称最多 8 个', 'en-US': 'At most 8 job queue names' },
  'area.queue_invalid': {
    'zh-CN': '任务队列名称只能包含小写字母、数字、- 和 _（最多 64 个字符），多个名称用逗号分隔',
    'en-US': 'Job queue names hold only lower-case letters, digits, - and _ (at most 64 characters), separated by commas',
  },
  'area.queue_repeated': { 'zh-CN': '任务队列名称重复', 'en-US': 'A job queue name is repeated' },
  'area.ip_invalid': { 'zh-CN': 'IP 地址格式无效', 'en-US': 'Invalid IP address' },
  'area.not_found': { 'zh-CN': '所选院区不存在', 'en-US': 'The chosen hospital area does not exist' },
  'area.in_use': {
    'zh-CN': '院区仍有医院或切片，不能删除',
    'en-US': 'The hospital area still has hospitals or slides and cannot be deleted',
  },
} as const;
