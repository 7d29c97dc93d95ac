import { describe, expect, it } from 'vitest';
import { effectiveStatus, OFFLINE_AFTER_MS, offlineCutoff, scanDuration } from './scannerStatus';

describe('scanner status', () => {
  const t0 = Date.parse('2026-01-01T08:00:00.000Z');
  const at = new Date(t0).toISOString();

  it('is what the scanner said until a minute of silence, then offline', () => {
    expect(effectiveStatus('working', at, t0 + 1_000)).toBe('working');
    expect(effectiveStatus('working', at, t0 + OFFLINE_AFTER_MS - 1)).toBe('working');
    expect(effectiveStatus('working', at, t0 + OFFLINE_AFTER_MS)).toBe('offline');
    expect(effectiveStatus('idle', null, t0)).toBe('offline');
    expect(effectiveStatus('idle', 'not a date', t0)).toBe('offline');
  });

  it('gives the cutoff a minute back', () => {
    expect(offlineCutoff(t0 + OFFLINE_AFTER_MS)).toBe(at);
  });

  it('measures scans', () => {
    expect(scanDuration(at, new Date(t0 + 1500).toISOString())).toBe(1500);
    expect(scanDuration(at, null)).toBeNull();
    expect(scanDuration(new Date(t0 + 1).toISOString(), at)).toBeNull();
  });
});
