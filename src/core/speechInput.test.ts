import { describe, expect, it } from 'vitest';
import { appendDictation, finalTranscript, speechLang, speechRecogniser } from './speechInput';

describe('speech input helpers', () => {
  it('finds the standard recogniser, else the WebKit one, else none', () => {
    class Std {}
    class Webkit {}
    expect(speechRecogniser({ SpeechRecognition: Std, webkitSpeechRecognition: Webkit })).toBe(Std);
    expect(speechRecogniser({ webkitSpeechRecognition: Webkit })).toBe(Webkit);
    expect(speechRecogniser({})).toBeNull();
    expect(speechRecogniser({ SpeechRecognition: 'not a class' })).toBeNull();
    expect(speechRecogniser(undefined)).toBeNull();
  });

  it('the recogniser speaks the UI language', () => {
    expect(speechLang('zh-CN')).toBe('zh-CN');
    expect(speechLang('zh')).toBe('zh-CN');
    expect(speechLang('en-US')).toBe('en-US');
    expect(speechLang('en')).toBe('en-US');
    expect(speechLang('fr-FR')).toBe('fr-FR');
  });

  it('takes the final results from resultIndex on, not interim ones', () => {
    const r = (transcript: string, isFinal: boolean) => ({ isFinal, 0: { transcript } });
    expect(finalTranscript({ resultIndex: 1, results: [r('old', true), r('灰白色组织', true), r('一块', false)] })).toBe('灰白色组织');
    expect(finalTranscript({ resultIndex: 0, results: [r('grey ', true), r('tissue', true)] })).toBe('grey tissue');
    expect(finalTranscript({ resultIndex: 0, results: [r('maybe', false)] })).toBe('');
  });

  it('appends with a space after Latin text, none after Chinese or a space, and keeps within the limit', () => {
    expect(appendDictation('', 'grey tissue', 500)).toBe('grey tissue');
    expect(appendDictation('Two pieces', 'grey tissue', 500)).toBe('Two pieces grey tissue');
    expect(appendDictation('Two pieces ', 'grey', 500)).toBe('Two pieces grey');
    expect(appendDictation('灰白色组织，', '切面实性', 500)).toBe('灰白色组织，切面实性');
    expect(appendDictation('abc', 'defgh', 5)).toBe('abc d');
    expect(appendDictation('abc', '', 5)).toBe('abc');
  });
});
