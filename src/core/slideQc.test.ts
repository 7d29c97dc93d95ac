import { describe, expect, it } from 'vitest';
import { needsRescan, qcGradingProblem, reasonsText } from './slideQc';

describe('slide QC', () => {
  it('requires a reason for an unqualified slide and refuses unknown reasons', () => {
    expect(qcGradingProblem('unqualified', [])).toBe('qc.reason_required');
    expect(qcGradingProblem('unqualified', ['blurry'])).toBeNull();
    expect(qcGradingProblem('qualified', [])).toBeNull();
    expect(qcGradingProblem('basic', ['smudge'])).toBe('qc.reason_unknown');
  });

  it('sends only unqualified slides back to rescan', () => {
    expect(needsRescan('unqualified')).toBe(true);
    expect(needsRescan('basic')).toBe(false);
  });

  it('stores reasons once, in the spec order', () => {
    expect(reasonsText(['wrong_case_id', 'blurry', 'blurry'])).toBe('blurry,wrong_case_id');
    expect(reasonsText([])).toBeNull();
  });
});
