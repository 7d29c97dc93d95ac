/** API and job messages of HL7 v2 with the HIS (issue 30), in both languages. */
export const hl7Messages = {
  'hl7.his_unavailable': {
    'zh-CN': 'HIS 暂时未确认检查结果（{{detail}}），将稍后重试',
    'en-US': 'The HIS did not acknowledge the result for now ({{detail}}); it will be tried again',
  },
  'hl7.his_refused': {
    'zh-CN': 'HIS 拒收检查结果（{{code}}：{{detail}}），不再重试；请联系接口管理员后重新发送',
    'en-US': 'The HIS refused the result ({{code}}: {{detail}}) and it is not tried again; ask the interface administrator, then send it again',
  },
  'hl7.not_configured': {
    'zh-CN': '未配置 HIS 的 HL7 地址（HL7_HIS_HOST、HL7_HIS_PORT），检查结果无法发送',
    'en-US': 'No HL7 address of the HIS is configured (HL7_HIS_HOST, HL7_HIS_PORT), so the result cannot be sent',
  },
  'hl7.message_not_found': { 'zh-CN': 'HL7 消息不存在或不属于当前医院', 'en-US': 'The HL7 message does not exist or belongs to another hospital' },
} as const;
