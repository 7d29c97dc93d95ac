import { api } from '../api/client';
import i18n from '../i18n';
import { useSession } from '../store/session';
import type { MeetingStatus } from '../core/meeting';

interface Envelope<T> { data: T }

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
  slides: { id: number; name: string; status: string }[];
  participants: { id: number; name: string; realname: string; joined_at: string }[];
}
export interface SlideChoice { id: number; name: string; pathology_number?: string | null }

export async function listMeetings(page: number, pageSize: number): Promise<{ data: Meeting[]; total: number }> {
  return (await api.get<Envelope<{ data: Meeting[]; total: number }>>('/meetings', { params: { page, page_size: pageSize } })).data.data;
}
export async function getMeeting(id: number): Promise<MeetingDetail> {
  return (await api.get<Envelope<MeetingDetail>>(`/meetings/${id}`)).data.data;
}
export async function createMeeting(body: { name: string; start_at?: string; slide_ids: number[] }): Promise<MeetingDetail> {
  return (await api.post<Envelope<MeetingDetail>>('/meetings', body)).data.data;
}
export async function updateMeeting(id: number, body: { name?: string; start_at?: string; slide_ids?: number[] }): Promise<MeetingDetail> {
  return (await api.patch<Envelope<MeetingDetail>>(`/meetings/${id}`, body)).data.data;
}
/** Each call below answers the meeting's state after it (the server announces it to everyone too). */
const act = async (id: number, what: string, body?: object): Promise<MeetingDetail> =>
  (await api.post<Envelope<MeetingDetail>>(`/meetings/${id}/${what}`, body, { allowMultiple: true })).data.data;
export const joinMeeting = (id: number) => act(id, 'join');
export const leaveMeeting = async (id: number): Promise<void> => { await api.post(`/meetings/${id}/leave`, undefined, { allowMultiple: true, silent: true }); };
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
  const res = await api.get<Envelope<{ data: SlideChoice[] }>>('/data/kfb/lists', { params: { search, page: 1, page_size: 20 } });
  return res.data.data.data;
}
export async function slideById(id: number): Promise<SlideChoice | null> {
  try {
    return (await api.get<Envelope<SlideChoice>>(`/data/kfb/item/${id}`, { silent: true })).data.data;
  } catch {
    return null;
  }
}
