import { api, unwrap } from '../../api/client';

export interface QrCode { id: string; secret: string; qr: string; expires_in: number }
export type QrCheck = { status: 'waiting' } | { status: 'approved'; access_token: string; user_id: number };
export interface QrRequest { status: string; ip: string | null; user_agent: string | null; created_at: string }

/** Spec §7 `ca/login`: a new code (shown as its QR image) and the secret only this browser holds. */
export const newQrCode = () => unwrap<QrCode>(api.post('/ca/login', {}, { silent: true }));
/** Spec §7 `ca/login/check`: still waiting, or the session the phone approved (once). */
export const checkQrCode = (code: QrCode) =>
  unwrap<QrCheck>(api.post('/ca/login/check', { id: code.id, secret: code.secret }, { silent: true, allowMultiple: true }));
/** The phone's side: what asks, and the answer. */
export const qrRequest = (id: string) => unwrap<QrRequest>(api.get(`/ca/login/request/${encodeURIComponent(id)}`, { silent: true }));
export const answerQr = (id: string, approve: boolean) => unwrap<{ status: string }>(api.post('/ca/login/approve', { id, approve }, { silent: true }));
