import { ToggleButton, Tooltip } from '@fluentui/react-components';
import { Mic20Filled, Mic20Regular } from '@fluentui/react-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { finalTranscript, speechLang, speechRecogniser, type SpeechRecogniser } from '../../core/speechInput';

/**
 * A microphone beside a text field (gross sampling, issue 10): dictation through the browser's Web Speech API in
 * the UI's language, each final phrase handed to `onWords`. Absent where the browser has no recogniser.
 */
export function VoiceButton({ onWords, testId }: { onWords(words: string): void; testId?: string }) {
  const { t, i18n } = useTranslation();
  const [listening, setListening] = useState(false);
  const current = useRef<SpeechRecogniser | null>(null);
  const words = useRef(onWords);
  words.current = onWords;
  useEffect(() => () => current.current?.stop(), []);
  const Recogniser = speechRecogniser(typeof window === 'undefined' ? undefined : window);
  if (!Recogniser) return null;

  const toggle = () => {
    if (current.current) {
      current.current.stop();
      return;
    }
    const r = new Recogniser();
    r.lang = speechLang(i18n.language);
    r.continuous = true;
    r.interimResults = false;
    r.onresult = (e) => {
      const text = finalTranscript(e);
      if (text) words.current(text);
    };
    r.onend = () => {
      current.current = null;
      setListening(false);
    };
    // Refused microphone, no speech, no network: the field stays as typed; the button shows it stopped.
    r.onerror = () => r.stop();
    current.current = r;
    setListening(true);
    r.start();
  };
  const label = listening ? t('lab.sampling.voiceStop') : t('lab.sampling.voice');
  return (
    <Tooltip content={label} relationship="label">
      <ToggleButton appearance="subtle" checked={listening} icon={listening ? <Mic20Filled /> : <Mic20Regular />} onClick={toggle} data-testid={testId} data-listening={listening} />
    </Tooltip>
  );
}
