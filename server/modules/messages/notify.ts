import type { Db } from '../../db/connect.js';
import type { Params } from '../../i18n/translate.js';
import { sendMessages } from './queries.js';
import { SYSTEM_MESSAGE_TYPE } from './types.js';

/** The system messages the workflow raises; each has `.title` and `.content` in messages.ts. */
export type SystemMessage = keyof typeof SYSTEM_MESSAGE_TYPE;

/**
 * Tells users of something the workflow did to them (a case assigned, a report returned). The text is stored as a
 * key and parameters, worded in each reader's language when read; `link` is the in-app path to open, `caseId` the
 * case it is about (a reader outside its subspecialty directory is not shown the message).
 */
export async function notify(db: Db, hospitalId: number | null, userIds: number[], what: SystemMessage, params: Params, link?: string, caseId?: number): Promise<void> {
  await sendMessages(db, { userId: null, hospitalId }, [...new Set(userIds)], {
    kind: 'system', level: 1, type: SYSTEM_MESSAGE_TYPE[what], title: '', content: '', message_key: `message.system.${what}`, params: JSON.stringify(params), link: link ?? null, case_id: caseId ?? null,
  });
}
