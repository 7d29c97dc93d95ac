import { planRequests } from '../core/actionRequest';
import type { Row } from '../engine/dataProvider';
import { registerAction } from '../engine/actions/registry';

interface LabelReading {
  text: string;
  candidates: string[];
  matches: { case_id: number; pathology_number: string }[];
  glass_slides: { code: string; stain: string }[];
}

/**
 * Reads the slide's label (POST /api/outer/ocr), then asks the action's prompt with what was read as its choices (the
 * glass slides whose code the label prints, then the hospital's cases with that number, then other numbers seen) and sends the action's request with the answer,
 * as `request` does: e.g. "Read label and bind" binds the slide to the case its label names.
 */
registerAction('ocr', async (action, rows, { ctx, t, label, notify, idOf, withValue }) => {
  const row = rows[0];
  if (!row || !action.request || !action.prompt) return;
  const reading = await ctx.dataProvider.custom<LabelReading>({ method: 'POST', url: '/api/outer/ocr', body: { slide_id: idOf(row) } });
  const numbers = [...new Set([...reading.matches.map((m) => m.pathology_number), ...reading.candidates])];
  const glass = reading.glass_slides ?? [];
  const found = [...glass.map((g) => g.code), ...numbers];
  notify(found.length ? t('actions.ocrRead', { text: found.join(', ') }) : t('actions.ocrNothing'), found.length ? 'success' : 'warning');
  // The glass slide the label's printed code names comes first: bound to it, the slide takes its block, number and stain.
  const options = [
    ...glass.map((g) => {
      const text = t('upload.bindGlassOption', { code: g.code, stain: g.stain });
      return { value: g.code, label: { 'zh-CN': text, 'en-US': text } };
    }),
    ...numbers.map((n) => ({ value: n, label: n })),
  ];
  const asked = { ...action, prompt: { ...action.prompt, options } };
  const sent = await withValue(asked, [row as Row], async (value, silent) => {
    for (const r of planRequests(asked, [row as Row], ctx.rowKey, value)) {
      await ctx.dataProvider.custom<Row>({ method: r.method, url: r.url, body: r.body, options: { allowMultiple: true, silent } });
    }
  });
  if (!sent) return;
  notify(t('actions.done', { action: label(action.label) }));
  ctx.refresh();
});
