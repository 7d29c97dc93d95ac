/**
 * Who may use which realtime (MQTT) topic. One rule set for the embedded broker and for RabbitMQ (where it is
 * written as topic-permission regexes over AMQP routing keys, `rabbitTopicPatterns`).
 *
 *   dsms/h/<hospital>/...            subscribe: members of that hospital      publish: nobody but the server
 *   dsms/h/<hospital>/p/<user>/...   subscribe: members of that hospital      publish: that user (a member)
 *   dsms/u/<user>/...                subscribe and publish: that user only
 *
 * The publisher's id sits in the topic, so a listener knows who sent a message (a meeting's presenter) without
 * trusting the payload. Wildcards are allowed only below a fixed hospital or user segment.
 */
export interface TopicHolder { id: number; hospitalIds: readonly number[] }

export const TOPIC_ROOT = 'dsms';
const MAX_TOPIC_LENGTH = 512;

export const hospitalTopic = (hospitalId: number, ...rest: (string | number)[]): string => [TOPIC_ROOT, 'h', hospitalId, ...rest].join('/');
export const userTopic = (userId: number, ...rest: (string | number)[]): string => [TOPIC_ROOT, 'u', userId, ...rest].join('/');
/** Where a user publishes within a hospital. */
export const publisherTopic = (hospitalId: number, userId: number, ...rest: (string | number)[]): string => hospitalTopic(hospitalId, 'p', userId, ...rest);

/** Where the server announces a hospital's scanners' state changes (ScannerList, ScannerDetail). */
export const scannerStatusTopic = (hospitalId: number): string => hospitalTopic(hospitalId, 'scanners', 'status');
/** Where the server announces the state and progress of a hospital's background jobs (src/core/jobPush.ts): slide lists, the upload panel. */
export const jobProgressTopic = (hospitalId: number): string => hospitalTopic(hospitalId, 'jobs');
/** Where the server tells a user that new messages arrived (the header's message bell). */
export const messagesTopic = (userId: number): string => userTopic(userId, 'messages');

const ID = /^[1-9][0-9]{0,9}$/;

function parts(topic: string): string[] | null {
  if (!topic || topic.length > MAX_TOPIC_LENGTH || topic.includes('\0')) return null;
  const p = topic.split('/');
  if (p[0] !== TOPIC_ROOT || p.length < 4 || !ID.test(p[2]!)) return null;
  return p;
}

/** May `who` subscribe to this topic filter (wildcards allowed only after the hospital/user segment)? */
export function maySubscribe(who: TopicHolder, filter: string): boolean {
  const p = parts(filter);
  if (!p) return false;
  if (p.slice(0, 3).some((s) => s === '+' || s === '#')) return false;
  const id = Number(p[2]);
  if (p[1] === 'h') return who.hospitalIds.includes(id);
  if (p[1] === 'u') return who.id === id;
  return false;
}

/** May `who` publish on this topic (no wildcards at all)? */
export function mayPublish(who: TopicHolder, topic: string): boolean {
  const p = parts(topic);
  if (!p || p.some((s) => s === '+' || s === '#')) return false;
  const id = Number(p[2]);
  if (p[1] === 'u') return who.id === id;
  if (p[1] === 'h') return who.hospitalIds.includes(id) && p[3] === 'p' && p[4] === String(who.id) && p.length >= 6;
  return false;
}

/**
 * The same rules as regexes over RabbitMQ routing keys (its MQTT plugin turns `/` into `.`), for RabbitMQ's topic
 * permissions on `amq.topic`: read is checked on subscribe, write on publish.
 */
export function rabbitTopicPatterns(who: TopicHolder): { read: string; write: string } {
  const hs = who.hospitalIds.map((h) => String(Math.trunc(h))).join('|');
  const u = String(Math.trunc(who.id));
  const hospitals = hs ? `h\\.(${hs})|` : '';
  const writers = hs ? `h\\.(${hs})\\.p\\.${u}\\.[^.#*]|` : '';
  return {
    read: `^${TOPIC_ROOT}\\.(${hospitals}u\\.${u})\\.`,
    write: `^${TOPIC_ROOT}\\.(${writers}u\\.${u}\\.)`,
  };
}
