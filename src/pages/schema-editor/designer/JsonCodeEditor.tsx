import { autocompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, foldGutter, syntaxHighlighting } from '@codemirror/language';
import { forEachDiagnostic, lintGutter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { makeStyles, tokens } from '@fluentui/react-components';
import { jsonSchema } from 'codemirror-json-schema';
import type { JSONSchema7 } from 'json-schema';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  editor: { border: `1px solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium, '& .cm-scroller': { fontFamily: tokens.fontFamilyMonospace } },
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
 * JSON for experts in CodeMirror 6 with codemirror-json-schema: the given meta-schema checks it as typed (each
 * error listed at its line, with the meta-schema's message) and completes property names. The editor owns its
 * text: it opens on `initial` (remount it, by key, to load another text) and hands every change to `onText`.
 * The page designer's JSON view and the rule-set and contract editors are this, each with its meta-schema.
 */
export function JsonCodeEditor({ initial, schema, onText, height = 560, validText, testId, label }: {
  initial: string; schema: object; onText(text: string): void; height?: number; validText: string; testId: string; label: string;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const onTextRef = useRef(onText);
  onTextRef.current = onText;
  const [problems, setProblems] = useState<Problem[]>([]);
  // The text the editor opened with: a later change from this editor must not reset it (the caret stays).
  const [doc] = useState(initial);

  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc,
        extensions: [
          lineNumbers(), foldGutter(), history(), bracketMatching(), lintGutter(), autocompletion(),
          syntaxHighlighting(defaultHighlightStyle), keymap.of([...defaultKeymap, ...historyKeymap]),
          jsonSchema(schema as JSONSchema7),
          EditorView.theme({ '&': { height: `${height}px` } }),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((u) => {
            // Diagnostics arrive after the linters' delay; read them whenever the state changes.
            const list: Problem[] = [];
            forEachDiagnostic(u.state, (d, from, to) => list.push({ line: u.state.doc.lineAt(lineOf(u.state.sliceDoc(from, to), d.message, from)).number, message: d.message }));
            setProblems((was) => (JSON.stringify(was) === JSON.stringify(list) ? was : list));
            if (u.docChanged) onTextRef.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    return () => view.destroy();
  }, [doc, schema, label, height]);

  return (
    <div>
      <div ref={host} className={s.editor} data-testid={testId} />
      {problems.length ? (
        <ul className={s.problems} data-testid={`${testId}-problems`}>
          {problems.map((p, i) => <li key={i}>{t('designer.atLine', { line: p.line })} {p.message}</li>)}
        </ul>
      ) : <span className={s.ok}>{validText}</span>}
    </div>
  );
}
