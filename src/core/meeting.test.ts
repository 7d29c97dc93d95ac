import { describe, expect, it } from 'vitest';
import { mayPublish, maySubscribe } from './realtime-topics';
import { announcementStep, meetingHelloTopic, meetingTopic, meetingViewFilter, meetingViewTopic, parseMeetingView, presenterAfterRelease, publisherOf, takeRefusal, viewToFollow } from './meeting';

const open = { status: 'open' as const, hostId: 1, presenterId: 1 };

describe('meeting control', () => {
  it('lets a participant take control from the host or when nobody holds it', () => {
    expect(takeRefusal(open, 2, false)).toBeNull();
    expect(takeRefusal({ ...open, presenterId: null }, 2, false)).toBeNull();
    expect(takeRefusal({ ...open, presenterId: 2 }, 2, false)).toBeNull();
  });

  it('keeps control with a participant until they hand it back, unless the host or a manager takes it', () => {
    const held = { ...open, presenterId: 2 };
    expect(takeRefusal(held, 3, false)).toBe('held');
    expect(takeRefusal(held, 1, false)).toBeNull();
    expect(takeRefusal(held, 3, true)).toBeNull();
  });

  it('refuses every take once the meeting has ended', () => {
    expect(takeRefusal({ ...open, status: 'ended' }, 1, true)).toBe('ended');
  });

  it('hands control back to the host, and the host lets it go to nobody', () => {
    expect(presenterAfterRelease({ ...open, presenterId: 2 }, 2)).toBe(1);
    expect(presenterAfterRelease(open, 1)).toBeNull();
    expect(presenterAfterRelease(open, 2)).toBe('not_presenter');
  });
});

describe('meeting topics', () => {
  const who = { id: 5, hospitalIds: [1] };
  it('are ones the realtime rules let members use: the server announces, each browser publishes its own view', () => {
    expect(maySubscribe(who, meetingTopic(1, 9))).toBe(true);
    expect(maySubscribe(who, meetingViewFilter(1, 9))).toBe(true);
    expect(maySubscribe(who, meetingViewFilter(2, 9))).toBe(false);
    expect(mayPublish(who, meetingViewTopic(1, 5, 9))).toBe(true);
    expect(mayPublish(who, meetingHelloTopic(1, 5, 9))).toBe(true);
    expect(mayPublish(who, meetingViewTopic(1, 6, 9))).toBe(false);
    expect(mayPublish(who, meetingTopic(1, 9))).toBe(false);
  });

  it('name the publisher in the topic', () => {
    expect(publisherOf(meetingViewTopic(1, 42, 9))).toBe(42);
    expect(publisherOf(meetingTopic(1, 9))).toBeNull();
    expect(publisherOf('dsms/h/1/p/0x1/meetings/9/view')).toBeNull();
  });
});

describe('meeting view messages', () => {
  const good = { slide_id: 3, center: { x: 0.5, y: 0.4 }, imageZoom: 0.25, rotation: 90, flip: false, sent_at: 1_700_000_000_000 };
  it('keep a well-formed view', () => {
    expect(parseMeetingView(good)).toEqual(good);
  });
  it('drop anything malformed or out of range', () => {
    for (const bad of [null, 'x', { ...good, slide_id: 0 }, { ...good, center: { x: 'a', y: 0 } }, { ...good, imageZoom: Infinity }, { ...good, imageZoom: 0 },
      { ...good, flip: 'no' }, { ...good, rotation: 1e9 }, { ...good, sent_at: undefined }, { ...good, center: null }]) {
      expect(parseMeetingView(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('which views a participant follows', () => {
  const view = { slide_id: 3, center: { x: 0.5, y: 0.4 }, imageZoom: 0.25, rotation: 0, flip: false, sent_at: 1 };
  const now = { presenterId: 7, slideId: 3 };
  it('follows the presenter’s view of the slide on screen', () => {
    expect(viewToFollow(meetingViewTopic(1, 7, 9), view, now, 5)).toEqual(view);
  });
  it('ignores anyone else, even when the payload claims otherwise, its own echo, and another slide', () => {
    expect(viewToFollow(meetingViewTopic(1, 8, 9), { ...view, presenter: 7 }, now, 5)).toBeNull();
    expect(viewToFollow(meetingViewTopic(1, 7, 9), view, now, 7)).toBeNull();
    expect(viewToFollow(meetingViewTopic(1, 7, 9), { ...view, slide_id: 4 }, now, 5)).toBeNull();
    expect(viewToFollow(meetingViewTopic(1, 7, 9), view, { presenterId: null, slideId: 3 }, 5)).toBeNull();
    expect(viewToFollow(meetingTopic(1, 9), view, now, 5)).toBeNull();
  });
});

describe('an announcement of the meeting\'s state (slides by id only)', () => {
  const mine = { id: 9, version: 3, presenter_id: 1, slides: [{ id: 4, name: 'P1 HE' }, { id: 5, name: 'P1 CK' }] };
  it('merges a newer state naming the slides shown, keeping their names', () => {
    const step = announcementStep(mine, { event: 'state', meeting: { id: 9, version: 4, presenter_id: 2, slide_ids: [5, 4] } });
    expect(step).toEqual({ kind: 'merge', meeting: { ...mine, version: 4, presenter_id: 2 } });
  });
  it('asks for the meeting again when the set of slides differs (added, removed, or some hidden from this user)', () => {
    expect(announcementStep(mine, { meeting: { id: 9, version: 4, slide_ids: [4, 5, 6] } })).toEqual({ kind: 'fetch' });
    expect(announcementStep(mine, { meeting: { id: 9, version: 4, slide_ids: [4] } })).toEqual({ kind: 'fetch' });
  });
  it('ignores an older state, another meeting, and anything not an announcement', () => {
    expect(announcementStep(mine, { meeting: { id: 9, version: 2, slide_ids: [4, 5] } })).toEqual({ kind: 'ignore' });
    expect(announcementStep(mine, { meeting: { id: 8, version: 5, slide_ids: [4, 5] } })).toEqual({ kind: 'ignore' });
    expect(announcementStep(mine, { meeting: { id: 9, version: 5, slides: [] } })).toEqual({ kind: 'ignore' });
    expect(announcementStep(mine, null)).toEqual({ kind: 'ignore' });
  });
});
