import { Checkbox, Field, Input, makeStyles, Text } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MEETING_SLIDES_MAX } from '../core/meeting';
import { searchSlides, type SlideChoice } from './meetingApi';

const useStyles = makeStyles({
  choices: { display: 'flex', flexWrap: 'wrap', gap: '4px 16px' },
});

/** The slides of a meeting, chosen from a search of the slide library (my hospital); the first chosen is the cover. */
export function SlidePicker({ chosen, onChange }: { chosen: SlideChoice[]; onChange(next: SlideChoice[]): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<SlideChoice[]>([]);

  useEffect(() => {
    // Waits for a pause in typing: one request per search, not per key.
    const timer = setTimeout(() => { void searchSlides(search.trim()).then(setFound, () => undefined); }, 300);
    return () => clearTimeout(timer);
  }, [search]);

  const toggle = (sl: SlideChoice, on: boolean) => onChange(on
    ? (chosen.length < MEETING_SLIDES_MAX && !chosen.some((x) => x.id === sl.id) ? [...chosen, sl] : chosen)
    : chosen.filter((x) => x.id !== sl.id));
  const shown = [...chosen, ...found.filter((f) => !chosen.some((c) => c.id === f.id))];

  return (
    <>
      <Field label={t('meeting.findSlides')}>
        <Input value={search} maxLength={100} data-testid="meeting-slide-search" onChange={(_, d) => setSearch(d.value)} />
      </Field>
      <Text size={200}>{t('meeting.chosen', { count: chosen.length })}</Text>
      <div className={s.choices}>
        {shown.map((sl) => (
          <Checkbox key={sl.id} data-testid="meeting-slide-choice" data-slide={sl.id} checked={chosen.some((c) => c.id === sl.id)}
            label={sl.pathology_number ? `${sl.name} (${sl.pathology_number})` : sl.name} onChange={(_, d) => toggle(sl, d.checked === true)} />
        ))}
      </div>
    </>
  );
}
