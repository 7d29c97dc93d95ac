import { api, unwrap } from '../api/client';
import i18n from '../i18n';
import { useSession } from '../store/session';
import type { MeetingStatus } from '../core/meeting';

/** A meeting as the API answers it (server/modules/meetings/routes.ts). */
export interface Meeting {
  id: number;
  hospital_id: number;
  name: string;
  cover_slide_id: number | null;
  start_at: string;
  created_by: number;
  presenter_id: number | null;
  slide_id: number | null;
  status: MeetingStatus;
  version: number;
  ended_at: string | null;
  host_name: string;
  presenter_name: string;
}
export interface MeetingDetail extends Meeting {
  slides: { id: number; name: string; status: string; mpp?: number | null }[];
  participants: { id: number; name: string; realname: string; joined_at: string }[];
}
export interface SlideChoice { id: number; name: string; pathology_number?: string | null }

export async function listMeetings(page: number, pageSize: number): Promise<{ data: Meeting[]; total: number }> {
  return unwrap<{ data: Meeting[]; total: number }>(api.get('/meetings', { params: { page, page_size: pageSize } }));
}
export async function getMeeting(id: number): Promise<MeetingDetail> {
  return unwrap<MeetingDetail>(api.get(`/meetings/${id}`));
}
export async function createMeeting(body: { name: string; start_at?: string; slide_ids: number[] }): Promise<MeetingDetail> {
  return unwrap<MeetingDetail>(api.post('/meetings', body));
}
export async function updateMeeting(id: number, body: { name?: string; start_at?: string; slide_ids?: number[] }): Promise<MeetingDetail> {
  return unwrap<MeetingDetail>(api.patch(`/meetings/${id}`, body));
}
/** Each call below answers the meeting's state after it (the server announces it to everyone too). */
const act = async (id: number, what: string, body?: object): Promise<MeetingDetail> =>
  unwrap<MeetingDetail>(api.post(`/meetings/${id}/${what}`, body, { allowMultiple: true }));
export const joinMeeting = (id: number) => act(id, 'join');
export const leaveMeeting = async (id: number): Promise<void> => { await unwrap(api.post(`/meetings/${id}/leave`, undefined, { allowMultiple: true, silent: true })); };
/** Leaving as the page goes away: a keepalive request outlives the page, which axios's cannot. */
export function leaveOnUnload(id: number): void {
  const token = useSession.getState().token;
  if (!token) return;
  void fetch(`/api/meetings/${id}/leave`, { method: 'POST', keepalive: true, headers: { authorization: `Bearer ${token}`, 'user-language': i18n.language } }).catch(() => undefined);
}
export const takeControl = (id: number) => act(id, 'control/take');
export const handBack = (id: number) => act(id, 'control/release');
export const switchSlide = (id: number, slideId: number) => act(id, 'slide', { slide_id: slideId });
export const endMeeting = (id: number) => act(id, 'end');

/** Slides of my hospital whose name or case matches (the slide library's list). */
export async function searchSlides(search: string): Promise<SlideChoice[]> {
  return (await unwrap<{ data: SlideChoice[] }>(api.get('/data/kfb/lists', { params: { search, page: 1, page_size: 20 } }))).data;
}
export async function slideById(id: number): Promise<SlideChoice | null> {
  try {
    return await unwrap<SlideChoice>(api.get(`/data/kfb/item/${id}`, { silent: true }));
  } catch {
    return null;
  }
}
