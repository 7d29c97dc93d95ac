import { describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.js';
import { emitEvent, onEvent, shareBus } from './bus.js';

const fakeDb = () => ({}) as unknown as Db;

describe('domain event bus', () => {
  it('delivers an event to the listeners of its own database only', () => {
    const a = fakeDb();
    const b = fakeDb();
    const heard: string[] = [];
    onEvent(a, 'messages.sent', (e) => heard.push(`a:${e.userIds.join(',')}`));
    onEvent(b, 'messages.sent', (e) => heard.push(`b:${e.userIds.join(',')}`));
    emitEvent(a, 'messages.sent', { userIds: [1, 2] });
    expect(heard).toEqual(['a:1,2']);
  });

  it('keeps telling the others when one listener throws, and stops a listener that unsubscribed', () => {
    const db = fakeDb();
    const heard: number[] = [];
    onEvent(db, 'messages.sent', () => { throw new Error('broken listener'); });
    const off = onEvent(db, 'messages.sent', (e) => heard.push(...e.userIds));
    emitEvent(db, 'messages.sent', { userIds: [7] });
    off();
    emitEvent(db, 'messages.sent', { userIds: [8] });
    expect(heard).toEqual([7]);
  });

  it('hears an event emitted on a handle derived from its database (the request-scoped one) as on the database itself', () => {
    const root = fakeDb();
    const scoped = fakeDb();
    const other = fakeDb();
    shareBus(scoped, root);
    const heard: string[] = [];
    onEvent(root, 'jobs.queued', (e) => heard.push(`root:${e.type}`));
    onEvent(scoped, 'jobs.queued', (e) => heard.push(`scoped:${e.type}`));
    onEvent(other, 'jobs.queued', (e) => heard.push(`other:${e.type}`));
    emitEvent(scoped, 'jobs.queued', { type: 'slides.ingest' });
    emitEvent(root, 'jobs.queued', { type: 'focus' });
    expect(heard).toEqual(['root:slides.ingest', 'scoped:slides.ingest', 'root:focus', 'scoped:focus']);
  });
});
