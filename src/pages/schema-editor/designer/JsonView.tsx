import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, foldGutter, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { forEachDiagnostic, lintGutter } from '@codemirror/lint';
import { autocompletion } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { makeStyles, tokens } from '@fluentui/react-components';
import { jsonSchema } from 'codemirror-json-schema';
import type { JSONSchema7 } from 'json-schema';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import metaSchema from '../../../../schemas/meta/page.schema.json';
import type { PageSchema } from '../../../core/pageSchema';
import { checkPageSchema } from '../../../core/pageSchemaCheck';

const useStyles = makeStyles({
  editor: { border: `1px solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium, '& .cm-editor': { height: '560px' }, '& .cm-scroller': { fontFamily: tokens.fontFamilyMonospace } },
  problems: { margin: 0, paddingInlineStart: '18px', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, color: tokens.colorPaletteRedForeground1 },
  ok: { color: tokens.colorPaletteGreenForeground1 },
});

interface Problem { line: number; message: string }

/**
 * Where a diagnostic points: its start, except that an unknown property is reported on the object that holds
 * it, and the person looks for the property's own line.
 */
function lineOf(text: string, message: string, from: number): number {
  const name = /Additional property `([^`]+)`/.exec(message)?.[1];
  const at = name ? text.indexOf(JSON.stringify(name)) : -1;
  return at >= 0 ? from + at : from;
}

/**
 * The page as JSON for experts, in CodeMirror 6 with codemirror-json-schema: the page meta-schema checks
 * it as typed (each error at its line, with the meta-schema's message) and completes property names.
 * Whenever the text is a valid page, it becomes the draft the visual views show.
 */
export function JsonView({ page, onPage }: { page: PageSchema; onPage(page: PageSchema): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const onPageRef = useRef(onPage);
  onPageRef.current = onPage;
  const [problems, setProblems] = useState<Problem[]>([]);
  // The text the editor opened with: a later draft from this editor must not reset it (the caret stays).
  const [initial] = useState(() => JSON.stringify(page, null, 2));

  useEffect(() => {
    let timer: number | undefined;
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: initial,
        extensions: [
          lineNumbers(), foldGutter(), history(), bracketMatching(), lintGutter(), autocompletion(),
          syntaxHighlighting(defaultHighlightStyle), keymap.of([...defaultKeymap, ...historyKeymap]),
          jsonSchema(metaSchema as unknown as JSONSchema7),
          EditorView.updateListener.of((u) => {
            // Diagnostics arrive after the linters' delay; read them whenever the state changes.
            const list: Problem[] = [];
            forEachDiagnostic(u.state, (d, from, to) => list.push({ line: u.state.doc.lineAt(lineOf(u.state.sliceDoc(from, to), d.message, from)).number, message: d.message }));
            setProblems(list);
            if (!u.docChanged) return;
            window.clearTimeout(timer);
            timer = window.setTimeout(() => {
              let parsed: unknown;
              try { parsed = JSON.parse(u.state.doc.toString()); } catch { return; }
              if (!checkPageSchema(parsed as PageSchema).length) onPageRef.current(parsed as PageSchema);
            }, 300);
          }),
        ],
      }),
    });
    return () => { window.clearTimeout(timer); view.destroy(); };
  }, [initial]);

  return (
    <div>
      <div ref={host} className={s.editor} data-testid="designer-json" />
      {problems.length ? (
        <ul className={s.problems} data-testid="designer-json-problems">
          {problems.map((p, i) => <li key={i}>{t('designer.atLine', { line: p.line })} {p.message}</li>)}
        </ul>
      ) : <span className={s.ok}>{t('designer.jsonValid')}</span>}
    </div>
  );
}
