import { api, unwrap } from '../api/client';
import type { SharePermissions, ShareState } from '../core/sharePermissions';
import type { Annotation } from './api';

export interface CreatedShare { id: number; token: string; path: string; expires_at: string; recipient_id?: number | null }
export interface MyShare { id: number; slide_id: number; slide_name: string; permissions: SharePermissions; expires_at: string; revoked_at: string | null; created_at: string; state: ShareState }

/** What GET /api/share/view answers (server/modules/shares/routes.ts). */
export interface SharedView {
  slide: { id: number; name: string; width: number | null; height: number | null; mpp: number | null; objective_power: number | null; scan_at: string | null; stain: string | null; diagnosis: { pathology_number: string | null; specimen_name: string | null; clinical_diagnosis: string | null } | null };
  permissions: SharePermissions;
  expires_at: string;
  annotations: Annotation[] | null;
  dzi: string;
}

/** `recipientId`: a user of the slide's hospital to send the link to (a system message tells them). */
export async function createShare(slideId: number, expiresInSeconds: number, permissions: Partial<SharePermissions>, recipientId?: number): Promise<CreatedShare> {
  return unwrap<CreatedShare>(api.post('/shares', { slide_id: slideId, expires_in_seconds: expiresInSeconds, permissions, ...(recipientId ? { recipient_id: recipientId } : {}) }));
}
export interface ShareRecipient { id: number; name: string; realname: string }
export async function shareRecipients(slideId: number): Promise<ShareRecipient[]> {
  return unwrap<ShareRecipient[]>(api.get('/shares/recipients', { params: { slide_id: slideId } }));
}
export async function myShares(): Promise<MyShare[]> {
  return unwrap<MyShare[]>(api.get('/shares/mine'));
}
export async function revokeShare(id: number): Promise<void> {
  await unwrap(api.post(`/shares/${id}/revoke`));
}
export async function sharedView(token: string): Promise<SharedView> {
  return unwrap<SharedView>(api.get('/share/view', { params: { token }, silent: true }));
}
