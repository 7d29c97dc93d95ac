import { Type } from '@sinclair/typebox';
import { loadEnums } from '../schemas/repository.js';

/**
 * What a message or notice is about (spec §3 "notices (type, level, target)"): the values of the enum `notice_type`
 * in schemas/enums/common.json, which also words them in the message centre. The spec names the field, not its
 * values; these are DSMS's.
 */
export const MESSAGE_TYPES: readonly string[] = (loadEnums().notice_type ?? []).map((o) => String(o.value));

export const MessageType = Type.Union(MESSAGE_TYPES.map((v) => Type.Literal(v)));

/** The type of each system message the workflow raises. */
export const SYSTEM_MESSAGE_TYPE = { case_assigned: 'workflow', report_returned: 'workflow', share_received: 'share' } as const;
