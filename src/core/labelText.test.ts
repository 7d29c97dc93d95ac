import { describe, expect, it } from 'vitest';
import { glassCodeCandidates, numberKey, pathologyNumberCandidates } from './labelText';

describe('pathologyNumberCandidates', () => {
  it('finds the number of a label with its words around it', () => {
    expect(pathologyNumberCandidates('病理号\nP2026-00042\n')).toEqual(['P2026-00042']);
  });

  it('keeps each connector of spec §9 and numbers without a prefix', () => {
    expect(pathologyNumberCandidates('P2026_00042 X26 00001 2026000123')).toEqual(['P2026_00042', '2026000123', 'X26 00001']);
  });

  it('undoes the letters OCR reads for digits, only after the first digit', () => {
    expect(pathologyNumberCandidates('P2O26-OO042')).toEqual(['P2026-00042']);
    expect(pathologyNumberCandidates('SB2026-1')).toEqual(['SB2026-1']);
  });

  it('leaves out what has fewer than four digits, and repeats', () => {
    expect(pathologyNumberCandidates('HE 12 A-1 P2026-00042 p2026-00042')).toEqual(['P2026-00042']);
    expect(pathologyNumberCandidates('')).toEqual([]);
  });

  it('compares numbers without connector or case', () => {
    expect(numberKey('p2026 00042')).toBe(numberKey('P2026-00042'));
  });
});

describe('glassCodeCandidates', () => {
  it('finds a glass slide\'s code printed under its barcode, whole', () => {
    expect(glassCodeCandidates('HE\nP2026-00004-1-1\n')).toEqual(['P2026-00004-1-1']);
    // Ki-67 may be a block and slide too, as far as the text says: the lookup of whole codes tells.
    expect(glassCodeCandidates('p2026—00004—A2—3 Ki-67')).toEqual(['P2026-00004-A2-3', 'P2026-00004-KI-67']);
  });

  it('undoes the letters OCR reads for digits after the first digit, and keeps printed labels', () => {
    expect(glassCodeCandidates('P2O26-OOO04-1-I')).toEqual(['P2O26-OOO04-1-I', 'P2026-00004-1-1']);
    // A block called B stays B as read.
    expect(glassCodeCandidates('P2026-00004-B-1')).toEqual(['P2026-00004-B-1', 'P2026-00004-8-1']);
    expect(glassCodeCandidates('LBL-0042')).toEqual(['LBL-0042']);
  });

  it('joins the number and the block-section a label prints on lines of their own', () => {
    expect(glassCodeCandidates('P2026-00001\n\nG3-1\n\nCD20')).toEqual(['P2026-00001', 'P2026-00001-G3-1']);
    expect(glassCodeCandidates('病理号 P2026-00001\nA2-3 HE')).toEqual(['P2026-00001', 'P2026-00001-A2-3']);
  });

  it('leaves out short words and repeats', () => {
    expect(glassCodeCandidates('HE 1-1 P2026-00004-1-1 p2026-00004-1-1')).toEqual(['P2026-00004-1-1']);
    expect(glassCodeCandidates('')).toEqual([]);
  });
});
