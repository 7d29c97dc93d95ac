/**
 * Voice input where the browser has it (issue 10, gross sampling): the Web Speech API's recogniser, standard or
 * WebKit-prefixed, or null (then no microphone button is shown). Typed here because TypeScript's DOM library
 * does not declare it.
 */
export interface SpeechResultEvent { resultIndex: number; results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }> }
export interface SpeechRecogniser {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((e: SpeechResultEvent) => void) | null;
  onend: (() => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  start(): void;
  stop(): void;
}
export type SpeechRecogniserClass = new () => SpeechRecogniser;

export function speechRecogniser(scope: object | undefined): SpeechRecogniserClass | null {
  if (!scope) return null;
  const w = scope as { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown };
  const found = w.SpeechRecognition ?? w.webkitSpeechRecognition;
  return typeof found === 'function' ? found as SpeechRecogniserClass : null;
}

/** The recogniser's language for the UI language: a BCP 47 tag it knows (zh-CN, en-US); anything else as is. */
export const speechLang = (uiLang: string): string => (uiLang.toLowerCase().startsWith('zh') ? 'zh-CN' : uiLang.toLowerCase().startsWith('en') ? 'en-US' : uiLang);

/** The final words of a result event, from `resultIndex` on, joined. */
export function finalTranscript(e: SpeechResultEvent): string {
  let text = '';
  for (let i = e.resultIndex; i < e.results.length; i++) if (e.results[i].isFinal) text += e.results[i][0].transcript;
  return text.trim();
}

/** Dictated words appended to what is typed: a space between Latin words, none after CJK text; cut at `max`. */
export function appendDictation(current: string, words: string, max: number): string {
  if (!words) return current;
  const glue = current && !/\s$/.test(current) && !/[\u3000-\u9fff\uff00-\uffef]$/.test(current) ? ' ' : '';
  return (current + glue + words).slice(0, max);
}
