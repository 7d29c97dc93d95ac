import { HL7Message, type HL7Segment } from 'hl7v2';

/**
 * HL7 v2 messages read and written through the `hl7v2` library (parsing, escaping, the dictionary of each version):
 * what DSMS takes from a message and what it answers. Field access is by position (`PID-3`…), values trimmed strings.
 */
export const OUR_APPLICATION = 'DSMS';
/** The version DSMS writes (results, and an ACK of a message too broken to name its own). */
export const OUR_VERSION = '2.5.1';

/** A message that cannot be taken: the ACK code, HL7 table 0357's error code and the reason, which the ACK carries. */
export class Hl7Refusal extends Error {
  constructor(readonly ack: 'AE' | 'AR', readonly code: number, message: string) {
    super(message);
  }
}

/** Segments end in CR; peers that end them in LF or CRLF are read the same. */
export function parseMessage(raw: string): HL7Message {
  const text = raw.replace(/\r\n|\n/g, '\r').replace(/^\s+/, '');
  if (!text.startsWith('MSH')) throw new Hl7Refusal('AR', 100, 'the message does not start with an MSH segment');
  try {
    return HL7Message.parse(text);
  } catch (err) {
    throw new Hl7Refusal('AE', 102, `the message cannot be parsed: ${(err as Error).message}`);
  }
}

/** A component of a field (1-based, as HL7 numbers them), of the given repetition, trimmed; '' when absent. */
export function value(segment: HL7Segment | undefined, field: number, component = 1, repetition = 0): string {
  if (!segment) return '';
  const f = segment.field(field);
  if (!f || repetition >= f.repetitions.length) return '';
  const v = f.repetitions[repetition].comp(component)?.getValue() as unknown;
  if (v === undefined || v === null) return '';
  return (v instanceof Date ? v.toISOString() : String(v)).trim();
}

/** How many repetitions a field has. */
export const repetitions = (segment: HL7Segment | undefined, field: number): number => segment?.field(field)?.repetitions.length ?? 0;

/** What the header says: who sent it, what it is, its control id and version. */
export interface Header {
  sendingApplication: string;
  sendingFacility: string;
  receivingApplication: string;
  receivingFacility: string;
  /** MSH-9.1 and .2: ORM and O01. */
  messageCode: string;
  triggerEvent: string;
  controlId: string;
  processingId: string;
  version: string;
}

export function headerOf(msg: HL7Message): Header {
  const msh = msg.header;
  return {
    sendingApplication: value(msh, 3), sendingFacility: value(msh, 4), receivingApplication: value(msh, 5), receivingFacility: value(msh, 6),
    messageCode: value(msh, 9, 1).toUpperCase(), triggerEvent: value(msh, 9, 2).toUpperCase(), controlId: value(msh, 10),
    processingId: value(msh, 11), version: value(msh, 12) || msg.version,
  };
}

/** Our header of a message to `to` (its application and facility), of the given type. */
export function ourMessage(version: string, type: [string, string, string], to: { application: string; facility: string }, from: { facility: string }, controlId: string): HL7Message {
  const out = new HL7Message(version as never);
  const msh = out.header;
  msh.field(3).setValue(OUR_APPLICATION);
  msh.field(4).setValue(from.facility);
  msh.field(5).setValue(to.application);
  msh.field(6).setValue(to.facility);
  type.forEach((part, i) => { if (part) msh.field(9).setValue(part, i + 1); });
  msh.field(10).setValue(controlId);
  msh.field(11).setValue('P');
  return out;
}

/**
 * The acknowledgement (original mode) of a message: MSA-1 the code, MSA-2 its control id, MSA-3 the reason, and an
 * ERR segment naming the HL7 table 0357 error for AE/AR. Written by hand around the library's builder: its own
 * createAck addresses the answer to the wrong application.
 */
export function ackOf(header: Header | null, code: 'AA' | 'AE' | 'AR', controlId: string, text?: string, errorCode?: number): string {
  const version = header?.version && /^2\.[1-8](\.\d)?$/.test(header.version) ? header.version : OUR_VERSION;
  const out = ourMessage(version, ['ACK', header?.triggerEvent ?? '', 'ACK'],
    { application: header?.sendingApplication ?? '', facility: header?.sendingFacility ?? '' }, { facility: header?.receivingFacility ?? '' }, controlId);
  if (header?.processingId) out.header.field(11).setValue(header.processingId);
  const msa = out.addSegment('MSA');
  msa.field(1).setValue(code);
  msa.field(2).setValue(header?.controlId ?? '');
  if (text) msa.field(3).setValue(text.slice(0, 80));
  // ERR-3 (the 0357 code) is of v2.5 on; older versions keep the reason in MSA-3 alone.
  if (code !== 'AA' && errorCode !== undefined && version >= '2.5') {
    const err = out.addSegment('ERR');
    err.field(3).setValue(String(errorCode), 1);
    err.field(3).setValue(text?.slice(0, 200) ?? '', 2);
    err.field(3).setValue('HL70357', 3);
    err.field(4).setValue('E');
  }
  return out.toHL7String();
}

/** MSA-1 and MSA-3 of an acknowledgement; null when it is none. */
export function ackCodeOf(raw: string): { code: string; text: string; controlId: string } | null {
  try {
    const msg = parseMessage(raw);
    const msa = msg.getSegment('MSA');
    if (!msa) return null;
    return { code: value(msa, 1).toUpperCase(), text: value(msa, 3), controlId: value(msa, 2) };
  } catch {
    return null;
  }
}
