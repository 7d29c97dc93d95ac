import { describe, expect, it } from 'vitest';
import {
  chunkRanges, chunksToSend, chunkTotal, isAcceptedFile, isFinished, nextState, progressFor, progressFromLack,
  progressPercent, resumeKey, retryDecision, stateLabelKey,
} from './uploadPlan.js';

const MB2 = 2_097_152;

describe('chunk plan (spec §9: 2,097,152-byte chunks)', () => {
  it('splits a file into 2 MiB chunks with the remainder last', () => {
    expect(chunkTotal(5 * 1024 * 1024)).toBe(3);
    expect(chunkRanges(5 * 1024 * 1024)).toEqual([
      { num: 1, start: 0, end: MB2 },
      { num: 2, start: MB2, end: 2 * MB2 },
      { num: 3, start: 2 * MB2, end: 5 * 1024 * 1024 },
    ]);
  });
  it('exact multiples have no empty tail chunk; an empty file is one empty chunk', () => {
    expect(chunkRanges(2 * MB2)).toHaveLength(2);
    expect(chunkRanges(0)).toEqual([{ num: 1, start: 0, end: 0 }]);
    expect(chunkRanges(1)).toEqual([{ num: 1, start: 0, end: 1 }]);
  });
});

describe('chunks to send from the server lack', () => {
  it('sends everything at first', () => {
    expect(chunksToSend(3, {})).toEqual([1, 2, 3]);
  });
  it('uses lack, ignoring out-of-range numbers and duplicates, skipping in-flight and done', () => {
    expect(chunksToSend(5, { lack: [5, 2, 2, 9, 0, 3], inFlight: [3] })).toEqual([2, 5]);
    expect(chunksToSend(5, { lack: null, done: [1, 2], inFlight: [3] })).toEqual([4, 5]);
    expect(chunksToSend(5, { lack: [] })).toEqual([]);
  });
});

describe('progress (spec §4)', () => {
  it('follows the reported fraction but never shows 100 before success', () => {
    expect(progressPercent(0)).toBe(0);
    expect(progressPercent('0.5')).toBe(50);
    expect(progressPercent(0.33333)).toBe(33.3);
    expect(progressPercent(1)).toBe(99.9);
    expect(progressPercent('x')).toBe(0);
    expect(progressFromLack(4, [2])).toBe(75);
  });
  it('is 0 while waiting, reported while uploading, 100 on success', () => {
    expect(progressFor('waiting', 40)).toBe(0);
    expect(progressFor('uploading', 40)).toBe(40);
    expect(progressFor('success', 40)).toBe(100);
  });
});

describe('retries (spec §8, §9: more than 5 failures is an error)', () => {
  it('retries up to 5 failures with growing delay, then gives up', () => {
    for (let f = 1; f <= 5; f++) expect(retryDecision(f).retry).toBe(true);
    expect(retryDecision(1).delayMs).toBeLessThan(retryDecision(4).delayMs);
    expect(retryDecision(6)).toEqual({ retry: false, delayMs: 0 });
  });
});

describe('task state machine (spec §4)', () => {
  it('goes waiting → hashing → uploading → success', () => {
    let s = nextState('waiting', 'hash');
    expect(s).toBe('hashing');
    s = nextState(s, 'upload');
    expect(s).toBe('uploading');
    s = nextState(s, 'succeed');
    expect(s).toBe('success');
    expect(isFinished(s)).toBe(true);
    expect(nextState(s, 'fail')).toBe('success');
  });
  it('errors, cancels via stopping, and ignores events that do not apply', () => {
    expect(nextState('uploading', 'fail')).toBe('error');
    expect(nextState('uploading', 'cancel')).toBe('stopping');
    expect(nextState('stopping', 'stopped')).toBe('canceled');
    expect(nextState('waiting', 'cancel')).toBe('canceled');
    expect(nextState('error', 'retry')).toBe('waiting');
    expect(nextState('canceled', 'upload')).toBe('canceled');
  });
  it('labels states with the spec §4 upload labels', () => {
    expect(stateLabelKey('waiting')).toBe('notUploaded');
    expect(stateLabelKey('hashing')).toBe('uploading');
    expect(stateLabelKey('success')).toBe('uploaded');
    expect(stateLabelKey('error')).toBe('failed');
    expect(stateLabelKey('stopping')).toBe('stopping');
    expect(stateLabelKey('canceled')).toBe('canceled');
  });
});

describe('accepted files and resume key', () => {
  it('accepts slide and image types case-insensitively', () => {
    expect(isAcceptedFile('a.SVS')).toBe(true);
    expect(isAcceptedFile('b.kfb')).toBe(true);
    expect(isAcceptedFile('c.exe')).toBe(false);
  });
  it('keys a resumable task by name, size and md5', () => {
    expect(resumeKey('a.svs', 10, 'ABC')).toBe('upload:abc:10:a.svs');
  });
});
