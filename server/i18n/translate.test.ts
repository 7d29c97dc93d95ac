import { describe, expect, it } from 'vitest';
import { translate } from './translate.js';

describe('translate', () => {
  it('reads a msg: parameter as a message key (a translated word inside a message)', () => {
    expect(translate('en-US', 'resource.bad_value', { column: 'age', expected: 'msg:expected.string' })).not.toContain('msg:');
  });
  it('shows what a person wrote as written when literal, even if it starts with msg:', () => {
    const text = translate('en-US', 'message.system.report_returned.content', { by: 'auditor', number: 'P1', reason: 'msg:diagnosis.reason_required' }, { literal: true });
    expect(text).toContain('Reason: msg:diagnosis.reason_required');
  });
});
