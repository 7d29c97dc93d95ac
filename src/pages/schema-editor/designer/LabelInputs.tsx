import { Input } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { InlineLabel, Label } from '../../../core/pageSchema';

const LANGS = ['zh-CN', 'en-US'] as const;

/** A label in both languages; both emptied: no label (the default one applies). `wide`: a sentence (a check's message), not a word. */
export function LabelInputs({ value, onChange, placeholder, testId, wide }: { value: Label | undefined; onChange(label: InlineLabel | undefined): void; placeholder?: Label; testId: string; wide?: boolean }) {
  const { t } = useTranslation();
  const current: InlineLabel = typeof value === 'string' ? { 'zh-CN': value, 'en-US': value } : { ...(value ?? {}) } as InlineLabel;
  const hint = (lang: string) => (typeof placeholder === 'string' ? placeholder : (placeholder as InlineLabel | undefined)?.[lang as keyof InlineLabel]);
  return (
    <>
      {LANGS.map((lang) => (
        <Input key={lang} size="small" value={current[lang] ?? ''} placeholder={hint(lang) ?? t(`designer.label_${lang}`)} aria-label={t(`designer.label_${lang}`)} style={{ width: wide ? 280 : 130 }}
          data-testid={`${testId}-${lang}`}
          onChange={(_, d) => {
            const next = { ...current, [lang]: d.value };
            onChange(next['zh-CN'] || next['en-US'] ? next : undefined);
          }} />
      ))}
    </>
  );
}
