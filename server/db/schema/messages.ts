import type { Generated } from 'kysely';

/** Messages and reading meetings. */

export interface MessageTable {
  id: Generated<number>;
  /** The rows of one sending share it (the sender's "sent" list shows one entry per batch). */
  batch: string;
  hospital_id: number | null;
  /** The recipient. */
  user_id: number;
  /** Null for system messages. */
  from_user_id: number | null;
  kind: 'message' | 'notice' | 'system';
  level: number;
  /** What it is about: the enum notice_type (general, workflow, share, quality, maintenance; messages/types.ts). */
  type: string;
  title: string;
  content: string;
  /** System messages: a key of server/modules/messages/messages.ts and its parameters (JSON), worded when read. */
  message_key: string | null;
  params: string | null;
  /** An in-app path the message leads to (e.g. the case). */
  link: string | null;
  /** The case the message is about, if any: who may not see the case is not shown the message (spec §6 directories). */
  case_id: number | null;
  read_at: string | null;
  recipient_deleted: Generated<number>;
  sender_deleted: Generated<number>;
  created_at: string;
  /** 1: the sender asks the clinical side for an answer (messages/change-clinical records it). */
  clinical: Generated<number>;
  clinical_status: 'received' | 'handled' | null;
  clinical_note: string | null;
  clinical_at: string | null;
}

/** Reading meetings (migration 0025). */
export interface MeetingTable {
  id: Generated<number>;
  hospital_id: number;
  name: string;
  cover_slide_id: number | null;
  start_at: string;
  created_by: number;
  /** Who holds control now: participants follow this user's viewport. */
  presenter_id: number | null;
  /** The slide on screen. */
  slide_id: number | null;
  status: 'open' | 'ended';
  /** Grows with every change of state (compare-and-set for taking control). */
  version: Generated<number>;
  ended_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MeetingSlideTable {
  meeting_id: number;
  slide_id: number;
  rank: number;
}

export interface MeetingParticipantTable {
  meeting_id: number;
  user_id: number;
  joined_at: string;
}
