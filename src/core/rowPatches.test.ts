import { describe, expect, it } from 'vitest';
import { addPatch, NO_PATCHES, patchedRows, patchesAfter } from './rowPatches';

const rows = [{ id: 1, status: 'converting', progress: 10 }, { id: 2, status: 'ready', progress: null }];

describe('row patches', () => {
  it('changes the pushed fields of the row with that key, leaving the others (and the array, when none applies) as they were', () => {
    const p = addPatch(addPatch(NO_PATCHES, '1', { progress: 40 }), '1', { status: 'converting', progress: 55 });
    const out = patchedRows(rows, 'id', p);
    expect(out).toEqual([{ id: 1, status: 'converting', progress: 55 }, rows[1]]);
    expect(out[1]).toBe(rows[1]);
    expect(patchedRows(rows, 'id', addPatch(NO_PATCHES, '9', { progress: 1 }))).toBe(rows);
    expect(patchedRows(rows, 'id', NO_PATCHES)).toBe(rows);
  });

  it('drops what a read started after the patch already holds, and keeps a patch that came while the read was out', () => {
    let p = addPatch(NO_PATCHES, '1', { progress: 40 });
    const readFrom = p.seq; // a read starts
    p = addPatch(p, '2', { progress: 5 }); // a push while it is out
    const left = patchesAfter(p, readFrom);
    expect([...left.entries.keys()]).toEqual(['2']);
    // A later read clears the rest; nothing left keeps the same object.
    const none = patchesAfter(left, left.seq);
    expect(none.entries.size).toBe(0);
    expect(patchesAfter(none, none.seq)).toBe(none);
  });
});
