import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import metaSchema from '../../../../schemas/meta/page.schema.json';
import type { PageSchema } from '../../../core/pageSchema';
import { checkPage } from '../../../engine/pageCheck';
import { JsonCodeEditor } from './JsonCodeEditor';

/**
 * The page as JSON for experts (JsonCodeEditor with the page meta-schema: errors at their line, property names
 * completed). Whenever the text is a valid page, it becomes the draft the visual views show.
 */
export function JsonView({ page, onPage }: { page: PageSchema; onPage(page: PageSchema): void }) {
  const { t } = useTranslation();
  const onPageRef = useRef(onPage);
  onPageRef.current = onPage;
  const timer = useRef<number | undefined>(undefined);
  // The text the editor opened with: a later draft from this editor must not reset it (the caret stays).
  const [initial] = useState(() => JSON.stringify(page, null, 2));
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const onText = (text: string) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      let parsed: unknown;
      try { parsed = JSON.parse(text); } catch { return; }
      if (!checkPage(parsed as PageSchema).length) onPageRef.current(parsed as PageSchema);
    }, 300);
  };
  return <JsonCodeEditor initial={initial} schema={metaSchema} onText={onText} validText={t('designer.jsonValid')} testId="designer-json" label={t('designer.json')} />;
}
