import { api, unwrap } from '../api/client';

/** The spec §7 message calls (server/modules/messages/routes.ts). */
export interface Message {
  id: number; kind: 'message' | 'notice' | 'system'; level: number;
  /** What it is about: enum notice_type (general, workflow, share, quality, maintenance). */
  type: string; title: string; content: string;
  link: string | null; read_at: string | null; created_at: string; fromUser?: { id: number; name: string; realname: string } | null;
  /** 1: the sender asks for a clinical answer (change-clinical). */
  clinical?: number; clinical_status?: 'received' | 'handled' | null; clinical_note?: string | null; clinical_at?: string | null;
}
export interface SentEntry { id: number; batch: string; kind: string; level: number; type: string; title: string; content: string; created_at: string; recipients: number; read: number; to: string[]; clinical?: number; clinical_answered?: number; clinical_handled?: number }
export interface Page<T> { data: T[]; total: number; current_page: number; per_page: number }
export interface Unread { count: number; data: Message[] }

export const listInbox = (page: number, pageSize: number, unreadOnly: boolean, type?: string) =>
  unwrap<Page<Message>>(api.get('/messages/lists', { params: { include: 'fromUser', page, page_size: pageSize, ...(unreadOnly ? { unread: 1 } : {}), ...(type ? { type } : {}) } }));
export const listSent = (page: number, pageSize: number) => unwrap<Page<SentEntry>>(api.get('/messages/send-by-me', { params: { page, page_size: pageSize } }));
export const fetchUnread = () => unwrap<Unread>(api.get('/messages/unread-to-me', { silent: true }));
export const markRead = (ids: number[] | 'all') => unwrap<{ changed: number; unread: number }>(api.post('/messages/mark-as-read', ids === 'all' ? { all: true } : { msg_ids: ids }));
export const destroyMessages = (ids: number[]) => unwrap<{ unread: number }>(api.delete('/messages/destroy', { data: { msg_ids: ids } }));
export const sendMessage = (body: { user_ids: number[]; title: string; content: string; level: number; type?: string; clinical?: boolean }) => unwrap<{ recipients: number }>(api.post('/messages/send', body));
export const publishNotice = (body: { title: string; content: string; level: number; type: string; role_ids?: number[] }) => unwrap<{ recipients: number }>(api.post('/messages/notice', body));
export interface Recipients { users: { id: number; name: string; realname: string }[]; roles: { id: number; name: string; en_name: string | null }[] }
export const fetchRecipients = () => unwrap<Recipients>(api.get('/messages/recipients'));
/** Spec §7 messages/change-clinical: the clinical side's answer to messages that ask for one. */
export const changeClinical = (ids: number[], status: 'received' | 'handled', note?: string) =>
  unwrap<{ changed: number; unread: number }>(api.post('/messages/change-clinical', { msg_ids: ids, status, ...(note ? { note } : {}) }));
