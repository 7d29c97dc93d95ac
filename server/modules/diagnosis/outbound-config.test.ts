import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { parseFhirOutbound, parseOutboundKind, systemBaseOf } from './outbound-config.js';

describe('REPORT_OUTBOUND and the FHIR receiver settings (issue 30)', () => {
  it('defaults: nothing leaves; a 10 s post, 8 attempts, identifier systems under the public address', () => {
    const c = loadConfig({});
    expect(c.reportOutbound).toBe('none');
    expect(c.fhirOutbound).toEqual({ baseUrl: undefined, token: undefined, timeoutMs: 10_000, maxAttempts: 8, systemBase: undefined });
    expect(systemBaseOf(c.fhirOutbound, 'https://dsms.example.org/')).toBe('https://dsms.example.org/fhir/sid');
  });

  it('fhir reads its receiver, token, limits and systems', () => {
    const c = loadConfig({ REPORT_OUTBOUND: 'fhir', FHIR_BASE_URL: 'https://fhir.example.org/r4/', FHIR_TOKEN: 't0k', FHIR_TIMEOUT_MS: '2500', FHIR_MAX_ATTEMPTS: '3', FHIR_SYSTEM_BASE: 'https://id.example.org/sid/' });
    expect(c.reportOutbound).toBe('fhir');
    expect(c.fhirOutbound).toEqual({ baseUrl: 'https://fhir.example.org/r4', token: 't0k', timeoutMs: 2500, maxAttempts: 3, systemBase: 'https://id.example.org/sid' });
    expect(systemBaseOf(c.fhirOutbound, 'http://localhost:8001')).toBe('https://id.example.org/sid');
  });

  it('refuses to start on a setting it cannot use, naming it', () => {
    expect(() => parseOutboundKind('hl7v3')).toThrow(/REPORT_OUTBOUND must be one of none, outbox, fhir, hl7, not "hl7v3"/);
    expect(() => loadConfig({ REPORT_OUTBOUND: 'hl7' })).toThrow(/REPORT_OUTBOUND=hl7 needs HL7_HIS_HOST and HL7_HIS_PORT/);
    expect(loadConfig({ REPORT_OUTBOUND: 'hl7', HL7_HIS_HOST: 'his.local', HL7_HIS_PORT: '2575' }).reportOutbound).toBe('hl7');
    expect(() => parseFhirOutbound({}, 'fhir')).toThrow(/REPORT_OUTBOUND=fhir needs FHIR_BASE_URL/);
    expect(() => parseFhirOutbound({ FHIR_BASE_URL: 'ftp://x' }, 'fhir')).toThrow(/FHIR_BASE_URL must be an http\(s\) URL/);
    expect(() => parseFhirOutbound({ FHIR_BASE_URL: 'http://x', FHIR_MAX_ATTEMPTS: '0' }, 'fhir')).toThrow(/FHIR_MAX_ATTEMPTS must be a positive whole number/);
    expect(() => parseFhirOutbound({ FHIR_TIMEOUT_MS: '1.5' }, 'none')).toThrow(/FHIR_TIMEOUT_MS/);
  });
});
