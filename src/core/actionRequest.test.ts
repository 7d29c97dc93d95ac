import { describe, expect, it } from 'vitest';
import { formBody, lookupFill, missingFields, patchBody, planRequests, promptDefault, promptValue, revealedValue } from './actionRequest.js';
import type { ActionSchema } from './pageSchema.js';

const rows = [{ id: 3, name: 'a' }, { id: 7, name: 'b' }];
const prompt = { field: 'pathology_number', label: 'x', options: 'resource:cases', required: true };

describe('action requests', () => {
  it('a batch move with body "ids" is one call with every id and the prompt answer', () => {
    const move: ActionSchema = { key: 'move', label: 'x', kind: 'request', request: { method: 'POST', url: '/api/data/kfb/move', body: 'ids' }, prompt };
    expect(planRequests(move, rows, 'id', 'P2026-00001')).toEqual([
      { method: 'POST', url: '/api/data/kfb/move', body: { ids: [3, 7], pathology_number: 'P2026-00001' } },
    ]);
    // Nothing chosen: nothing to send (the runner asks to select first).
    expect(planRequests(move, [], 'id', 'P2026-00001')).toEqual([]);
  });

  it('a batch may name the body field and the row field it sends (slide making in batch: the chosen cases\' numbers as codes)', () => {
    const batch: ActionSchema = {
      key: 'b', label: 'x', kind: 'request', prompt: { field: 'step', required: true },
      request: { method: 'POST', url: '/api/pathology/make-slides/batch', body: 'ids', idsField: 'codes', idsFrom: 'name' },
    };
    expect(planRequests(batch, rows, 'id', 'cut')).toEqual([{ method: 'POST', url: '/api/pathology/make-slides/batch', body: { step: 'cut', codes: ['a', 'b'] } }]);
  });

  it('sends fixed body fields, null included (unbind)', () => {
    const unbind: ActionSchema = { key: 'u', label: 'x', kind: 'request', request: { method: 'POST', url: '/api/data/kfb/move', body: 'ids', data: { pathology_number: null } } };
    expect(planRequests(unbind, [rows[0]], 'id')).toEqual([{ method: 'POST', url: '/api/data/kfb/move', body: { pathology_number: null, ids: [3] } }]);
  });

  it('without body "ids" makes one call per row, the address filled from each', () => {
    const dl: ActionSchema = { key: 'dl', label: 'x', kind: 'download', request: { method: 'POST', url: '/api/data/kfb/download/{id}' } };
    expect(planRequests(dl, rows, 'id')).toEqual([
      { method: 'POST', url: '/api/data/kfb/download/3' },
      { method: 'POST', url: '/api/data/kfb/download/7' },
    ]);
    const perRow: ActionSchema = { ...dl, kind: 'request', prompt };
    expect(planRequests(perRow, [rows[1]], 'id', 'N1')).toEqual([{ method: 'POST', url: '/api/data/kfb/download/7', body: { pathology_number: 'N1' } }]);
  });

  it('a toolbar request (no rows) is one call; an action without a request makes none', () => {
    const refresh: ActionSchema = { key: 'r', label: 'x', kind: 'request', request: { method: 'POST', url: '/api/things/refresh' } };
    expect(planRequests(refresh, [], 'id')).toEqual([{ method: 'POST', url: '/api/things/refresh' }]);
    expect(planRequests({ key: 'n', label: 'x', kind: 'request' }, rows, 'id')).toEqual([]);
  });

  it('merges the prompt answer into a patch after the fixed fields', () => {
    const assign: ActionSchema = { key: 'a', label: 'x', kind: 'patch', patch: { status: 1, reason: 'old' }, prompt: { field: 'reason', label: 'x' } };
    expect(patchBody(assign, 'damaged')).toEqual({ status: 1, reason: 'damaged' });
    expect(patchBody({ key: 'p', label: 'x', kind: 'patch', patch: { status: 0 } })).toEqual({ status: 0 });
  });

  it('an empty answer of an optional prompt is sent as null', () => {
    expect(promptValue('  ')).toBeNull();
    expect(promptValue(' P2026-00001 ')).toBe('P2026-00001');
  });
});

describe('form action body', () => {
  const action = {
    key: 'register', label: 'x', kind: 'form' as const, permission: 'case_register',
    request: { method: 'POST' as const, url: '/pathology/register', data: { case_type: 'routine' } },
    fields: [
      { field: 'patient_name', required: true },
      { field: 'age', type: 'integer' as const },
      { field: 'specimens.0.name', required: true },
      { field: 'specimens.1.name' },
    ],
  };

  it('nests dotted fields, sends integers as numbers, leaves empty answers out and keeps the fixed fields', () => {
    expect(formBody(action, { patient_name: ' Li ', age: '42', 'specimens.0.name': 'Stomach', 'specimens.1.name': '' }))
      .toEqual({ case_type: 'routine', patient_name: 'Li', age: 42, specimens: [{ name: 'Stomach' }] });
    expect(action.request.data).toEqual({ case_type: 'routine' });
  });

  it('fills a fixed field naming a row field with the row\'s value, as it is', () => {
    const fromRow = { ...action, request: { ...action.request, data: { order_type: 'out', consumable_id: '{consumable_id}', batch_number: '{batch_number}', note: 'a {b}' } } };
    expect(formBody(fromRow, { patient_name: 'Li' }, { consumable_id: 7, batch_number: 'L-1' }))
      .toEqual({ order_type: 'out', consumable_id: 7, batch_number: 'L-1', note: 'a {b}', patient_name: 'Li' });
    expect(formBody(fromRow, {}).consumable_id).toBeNull();
  });

  it('names the required fields left empty', () => {
    expect(missingFields(action, { patient_name: ' ' })).toEqual(['patient_name', 'specimens.0.name']);
    expect(missingFields(action, { patient_name: 'Li', 'specimens.0.name': 'x' })).toEqual([]);
  });
});

describe('integer prompt', () => {
  it('sends a chosen id as a number', () => {
    const action = { key: 'assign', label: 'x', kind: 'request' as const, permission: 'p', request: { method: 'POST' as const, url: '/a/{id}' }, prompt: { field: 'doctor_id', type: 'integer' as const } };
    expect(planRequests(action, [{ id: 4 }], 'id', '12')).toEqual([{ method: 'POST', url: '/a/4', body: { doctor_id: 12 } }]);
  });
});

describe('lookup fill (registration\'s HIS lookup)', () => {
  const action = {
    key: 'quick', label: 'Quick', kind: 'form',
    fields: [{ field: 'outpatient_number', lookup: { url: '/api/pathology/his/lookup' } }, { field: 'patient_name' }, { field: 'age', type: 'integer' }, { field: 'gender' }, { field: 'bed_number' }, { field: 'specimens.0.name' }],
  } as ActionSchema;
  it('fills the form\'s own fields the answer holds, as text; leaves the looked-up one, empty values, nested fields and unknown keys', () => {
    expect(lookupFill(action, 'outpatient_number', {
      outpatient_number: 'OTHER', patient_name: '钱芳', age: 38, gender: 'female', bed_number: null, phone: '139', 'specimens.0.name': 'x', specimens: [{ name: 'y' }],
    })).toEqual({ patient_name: '钱芳', age: '38', gender: 'female' });
    expect(lookupFill(action, 'outpatient_number', { patient_name: '  ', age: Number.NaN })).toEqual({});
  });
  it('an answer that is no object fills nothing', () => {
    for (const a of [null, 'x', 3, ['patient_name']]) expect(lookupFill(action, 'outpatient_number', a)).toEqual({});
  });
});

describe('reveal (ScannerList\'s "Issue key")', () => {
  const issue: ActionSchema = {
    key: 'issueKey', label: 'x', kind: 'reveal', permission: 'scanner_operate',
    request: { method: 'POST', url: '/api/scanner/key/{id}' }, reveal: { field: 'key' },
  };
  it('calls the request for the row and shows the named field of the answer', () => {
    expect(planRequests(issue, [rows[1]], 'id')).toEqual([{ method: 'POST', url: '/api/scanner/key/7' }]);
    expect(revealedValue({ id: 7, key: 'dsk_abc123', key_prefix: 'dsk_abc' }, 'key')).toBe('dsk_abc123');
    expect(revealedValue({ pin: 4711 }, 'pin')).toBe('4711');
  });
  it('shows nothing when the answer lacks the field or it is empty', () => {
    for (const a of [null, 'dsk_abc', ['key'], {}, { key: '' }, { key: '  ' }, { key: null }, { key: { nested: 1 } }]) expect(revealedValue(a, 'key')).toBeNull();
  });
});

describe('a prompt of several values started from the row (SlideQC\'s "Unqualified")', () => {
  const reasons = { field: 'reasons', options: 'qc_reason', multiple: true, defaultFrom: 'suggested_reasons', required: true };
  const unqualified: ActionSchema = {
    key: 'unqualified', label: 'x', kind: 'request', permission: 'qc_manage',
    request: { method: 'POST', url: '/api/slide/qc/grade/{slide_id}', data: { grade: 'unqualified' } }, prompt: reasons,
  };
  it('starts with the row\'s suggested reasons, a comma-separated text or a list', () => {
    expect(promptDefault(reasons, [{ slide_id: 4, suggested_reasons: 'blurry' }])).toEqual(['blurry']);
    expect(promptDefault(reasons, [{ suggested_reasons: 'blurry, wrong_area,,blurry' }])).toEqual(['blurry', 'wrong_area']);
    expect(promptDefault(reasons, [{ suggested_reasons: ['wrong_area', 7] }])).toEqual(['wrong_area', '7']);
  });
  it('starts empty without a suggestion, without rows or without defaultFrom', () => {
    for (const v of [null, undefined, '', ' , ', {}, true]) expect(promptDefault(reasons, [{ suggested_reasons: v }])).toEqual([]);
    expect(promptDefault(reasons, [])).toEqual([]);
    expect(promptDefault({ ...reasons, defaultFrom: undefined }, [{ suggested_reasons: 'blurry' }])).toEqual([]);
  });
  it('with several rows, starts with what they all share', () => {
    expect(promptDefault(reasons, [{ suggested_reasons: 'blurry,wrong_area' }, { suggested_reasons: 'wrong_area' }])).toEqual(['wrong_area']);
    expect(promptDefault(reasons, [{ suggested_reasons: 'blurry' }, { suggested_reasons: null }])).toEqual([]);
  });
  it('a single prompt takes the value as it is (commas and all), or a list\'s first', () => {
    const one = { field: 'reason', defaultFrom: 'note' };
    expect(promptDefault(one, [{ note: 'a, b' }])).toEqual(['a, b']);
    expect(promptDefault(one, [{ note: ['x', 'y'] }])).toEqual(['x']);
    expect(promptDefault(one, [{ note: 12 }])).toEqual(['12']);
  });
  it('sends the chosen reasons as a list, trimmed and without repeats, beside the fixed grade', () => {
    expect(promptValue(['blurry', ' wrong_area ', 'blurry', ''])).toEqual(['blurry', 'wrong_area']);
    expect(promptValue([])).toEqual([]);
    expect(planRequests(unqualified, [{ slide_id: 4 }], 'slide_id', promptValue(['blurry', 'wrong_area']))).toEqual([
      { method: 'POST', url: '/api/slide/qc/grade/4', body: { grade: 'unqualified', reasons: ['blurry', 'wrong_area'] } },
    ]);
    const ids: ActionSchema = { ...unqualified, prompt: { field: 'doctors', type: 'integer', multiple: true } };
    expect(planRequests(ids, [{ slide_id: 4 }], 'slide_id', ['3', '12'])[0]!.body).toEqual({ grade: 'unqualified', doctors: [3, 12] });
  });
});
