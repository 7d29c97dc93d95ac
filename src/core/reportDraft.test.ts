import { describe, expect, it } from 'vitest';
import { insertAt, restoreDraft, textOf } from './reportDraft';

describe('diagnosis editor text', () => {
  it('a phrase goes in at the cursor, replacing the selection', () => {
    expect(insertAt('胃炎', 1, 1, '窦')).toEqual({ text: '胃窦炎', caret: 2 });
    expect(insertAt('abcdef', 1, 3, 'X')).toEqual({ text: 'aXdef', caret: 2 });
    expect(insertAt('ab', 9, 9, 'c')).toEqual({ text: 'abc', caret: 3 });
  });

  it('unsaved typing comes back after a reload; typed on an older version it is a conflict, not an overwrite', () => {
    const server = { version: 3, text: textOf({ diagnosis: '旧' }) };
    expect(restoreDraft(server, null)).toMatchObject({ from: 'server', conflict: false });
    const local = { reportId: 1, caseId: 1, baseVersion: 3, text: textOf({ diagnosis: '新打的字' }), at: '' };
    expect(restoreDraft(server, local)).toMatchObject({ from: 'local', conflict: false, text: { diagnosis: '新打的字' } });
    expect(restoreDraft({ ...server, version: 4 }, local)).toMatchObject({ from: 'local', conflict: true });
    expect(restoreDraft(server, { ...local, text: server.text })).toMatchObject({ from: 'server' });
    expect(restoreDraft(null, { ...local, reportId: null, baseVersion: 0 })).toMatchObject({ from: 'local', conflict: false });
  });
});
