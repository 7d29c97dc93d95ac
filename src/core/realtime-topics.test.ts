import { describe, expect, it } from 'vitest';
import { hospitalTopic, jobProgressTopic, mayPublish, maySubscribe, publisherTopic, rabbitTopicPatterns, userTopic } from './realtime-topics';

const who = { id: 5, hospitalIds: [1, 2] };
// RabbitMQ's MQTT plugin maps `/` to `.` in routing keys (and `+` to `*`).
const key = (topic: string) => topic.replaceAll('/', '.').replaceAll('+', '*');

describe('realtime topics', () => {
  it('lets a user subscribe to their hospitals and themselves only', () => {
    expect(maySubscribe(who, 'dsms/h/1/#')).toBe(true);
    expect(maySubscribe(who, hospitalTopic(2, 'meeting', 3))).toBe(true);
    expect(maySubscribe(who, userTopic(5, '#'))).toBe(true);
    for (const bad of ['dsms/h/3/#', 'dsms/h/12/x', 'dsms/u/6/#', 'dsms/#', '#', 'dsms/+/1/x', 'dsms/h/+/x', 'dsms/h/#', 'other/h/1/x', 'dsms/h/01/x', 'dsms/h/1']) {
      expect(maySubscribe(who, bad), bad).toBe(false);
    }
  });

  it('announces a hospital’s jobs to its members, published by the server alone', () => {
    expect(jobProgressTopic(2)).toBe('dsms/h/2/jobs');
    expect(maySubscribe(who, jobProgressTopic(1))).toBe(true);
    expect(maySubscribe(who, jobProgressTopic(3))).toBe(false);
    expect(mayPublish(who, jobProgressTopic(1))).toBe(false);
  });

  it('lets a user publish only under their own publisher segment or user topic', () => {
    expect(mayPublish(who, publisherTopic(1, 5, 'meeting', 9))).toBe(true);
    expect(mayPublish(who, userTopic(5, 'x'))).toBe(true);
    for (const bad of ['dsms/h/1/meeting/9', 'dsms/h/1/p/6/meeting', 'dsms/h/3/p/5/x', 'dsms/h/1/p/5', 'dsms/u/6/x', 'dsms/h/1/p/5/#']) {
      expect(mayPublish(who, bad), bad).toBe(false);
    }
  });

  it('writes the same rules as RabbitMQ topic-permission regexes', () => {
    const { read, write } = rabbitTopicPatterns(who);
    const r = new RegExp(read);
    const w = new RegExp(write);
    for (const t of ['dsms/h/1/#', 'dsms/h/2/meeting/3', 'dsms/u/5/#', 'dsms/h/3/#', 'dsms/h/12/x', 'dsms/u/6/#', 'dsms/#', 'dsms/+/1/x', 'dsms/h/+/x']) {
      expect(r.test(key(t)), t).toBe(maySubscribe(who, t));
    }
    for (const t of ['dsms/h/1/p/5/meeting/9', 'dsms/u/5/x', 'dsms/h/1/meeting/9', 'dsms/h/1/p/6/meeting', 'dsms/h/1/p/55/x', 'dsms/h/3/p/5/x', 'dsms/u/6/x']) {
      expect(w.test(key(t)), t).toBe(mayPublish(who, t));
    }
  });

  it('gives a user without hospitals their own topic only', () => {
    const { read, write } = rabbitTopicPatterns({ id: 7, hospitalIds: [] });
    expect(new RegExp(read).test('dsms.u.7.x')).toBe(true);
    expect(new RegExp(read).test('dsms.h.1.x')).toBe(false);
    expect(new RegExp(write).test('dsms.u.7.x')).toBe(true);
  });
});
