import { describe, expect, it } from 'vitest';
import { parseHl7Config } from './config.js';
import { ackOf, headerOf, parseMessage } from './message.js';
import { ageOf, patientOf } from './patient-fields.js';

const now = new Date('2026-12-02T10:00:00Z');

describe('HL7 patient fields', () => {
  it('age at the message: years, months under a year, days under a month; none for a date to come or no date', () => {
    expect(ageOf('19800315', now)).toEqual({ age: 46, unit: 'year' });
    expect(ageOf('19801202', now)).toEqual({ age: 46, unit: 'year' });
    expect(ageOf('19801203', now)).toEqual({ age: 45, unit: 'year' });
    expect(ageOf('20260501', now)).toEqual({ age: 7, unit: 'month' });
    expect(ageOf('20261120', now)).toEqual({ age: 12, unit: 'day' });
    expect(ageOf('20270101', now)).toBeNull();
    expect(ageOf('19800230', now)).toBeNull();
    expect(ageOf('', now)).toBeNull();
  });

  it('an inpatient visit (PV1-2 I) gives the admission number, another the outpatient number; names joined as written', () => {
    const msg = (cls: string, name: string) => parseMessage(`MSH|^~\\&|HIS|H001|DSMS|P|20261202||ADT^A01|1|P|2.5\rPID|1||ID9^^^H^MR~110101196301010031^^^CHN^NNCHN||${name}||19630101|M|||||13800000002\rPV1|1|${cls}|胸外科^^12-3||||||||||||||||V77\r`);
    expect(patientOf(msg('I', '周^强'), now)).toMatchObject({
      patient_name: '周强', gender: 'male', admission_number: 'V77', outpatient_number: null, treat_type: 'hospital', bed_number: '12-3',
      inspection_department: '胸外科', id_number: '110101196301010031', phone: '13800000002', age: 63, age_unit: 'year',
    });
    expect(patientOf(msg('O', 'Smith^John'), now)).toMatchObject({ patient_name: 'Smith John', outpatient_number: 'V77', admission_number: null, treat_type: 'clinic' });
  });

  it('LF-separated segments read as CR ones; an ACK answers the sender with the reason, ERR only from v2.5', () => {
    const msg = parseMessage('MSH|^~\\&|HIS|H001|DSMS|PATH|20261202||ORM^O01|C1|P|2.3\nPID|1\n');
    expect(msg.segments.map((s) => s.segmentType)).toEqual(['MSH', 'PID']);
    const header = headerOf(msg);
    const ack = ackOf(header, 'AE', 'A1', 'bad|field', 101);
    expect(ack).toMatch(/^MSH\|\^~\\&\|DSMS\|PATH\|HIS\|H001\|/);
    expect(ack).toContain('\rMSA|AE|C1|bad\\F\\field');
    expect(ack).not.toContain('ERR');
    expect(ackOf({ ...header, version: '2.5.1' }, 'AE', 'A1', 'x', 101)).toContain('\rERR|||101^x^HL70357|E');
  });

  it('settings: the listener off by default, REPORT_OUTBOUND=hl7 needs the HIS address, numbers checked', () => {
    expect(parseHl7Config({}, false)).toMatchObject({ listenPort: undefined, listenHost: '0.0.0.0', maxMessageBytes: 1048576, maxConnections: 20 });
    expect(() => parseHl7Config({}, true)).toThrow(/HL7_HIS_HOST/);
    expect(parseHl7Config({ HL7_HIS_HOST: 'his', HL7_HIS_PORT: '2575', HL7_MLLP_PORT: '2576' }, true)).toMatchObject({ hisHost: 'his', hisPort: 2575, listenPort: 2576 });
    expect(() => parseHl7Config({ HL7_MLLP_PORT: '70000' }, false)).toThrow(/HL7_MLLP_PORT/);
    expect(() => parseHl7Config({ HL7_MAX_CONNECTIONS: '0' }, false)).toThrow(/HL7_MAX_CONNECTIONS/);
  });
});
