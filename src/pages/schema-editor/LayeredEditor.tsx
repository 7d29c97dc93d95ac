import {
  Button, Card, CardHeader, Dropdown, Input, MessageBar, MessageBarBody, MessageBarTitle, Option, Spinner, Tab, TabList,
} from '@fluentui/react-components';
import { Save20Regular, TextGrammarWand20Regular } from '@fluentui/react-icons';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../api/client';
import { notify } from '../../api/notify';
import type { SchemaVersion } from '../../engine/schemaApi';
import { useConfirm } from '../../widgets/dialogs/ConfirmDialog';
import { HistoryPanel } from './designer/HistoryPanel';
import { JsonCodeEditor } from './designer/JsonCodeEditor';
import { parseOverride, serverProblems, useOverrideEditorStyles } from './overrideEditing';

export interface Problem { path: string; message: string }

/** What one kind of layered document (rule sets, resource contracts) needs from the editor. */
export interface LayeredKind<Base> {
  /** For test ids: `${id}-editor`, `${id}-override`, `${id}-save`, `${id}-problems`, `${id}-merged`. */
  id: string;
  /** The label of the name picker. */
  nameLabel: string;
  /** The text shown while the document is valid. */
  validText: string;
  mergedTitle: string;
  /** The JSON Schema the override text is checked against as typed (errors at their line) and completed from. */
  metaSchema: object;
  names(): Promise<string[]>;
  /** The base, this hospital's current version and its versions. */
  load(name: string): Promise<{ base: Base; current: number; versions: SchemaVersion[] }>;
  check(override: Record<string, unknown>, base: Base, name: string): Problem[];
  /** The document as the hospital has it with `override`: what the history's diff compares. */
  effective(override: Record<string, unknown>, base: Base): unknown;
  /** The document as the hospital would have it, drawn beside the editor. */
  preview(override: Record<string, unknown>, base: Base): ReactNode;
  save(name: string, override: Record<string, unknown>, note: string): Promise<{ version: number }>;
  rollback(name: string, version: number): Promise<{ version: number }>;
  /**
   * A visual editor of the document, offered before the JSON (which stays one tab away): it is handed the override
   * being edited and gives back a new one, so both views edit the same text.
   */
  visual?(props: { override: Record<string, unknown>; base: Base; name: string; onOverride(override: Record<string, unknown>): void }): ReactNode;
}

/**
 * A hospital's version of one layered document, edited visually or as JSON (CodeMirror, checked against the
 * kind's meta-schema as typed): pick a name, edit the hospital's override, see the result beside it, save it with
 * a note as a new version; the history says who saved what when and why, diffs any two versions as the hospital
 * sees them, and rolls back to any. The rule-set and resource-field halves of the schema editor are this.
 */
export function LayeredEditor<Base>({ kind }: { kind: LayeredKind<Base> }) {
  const s = useOverrideEditorStyles();
  const { t } = useTranslation();
  const [confirmDialog, confirm] = useConfirm();
  const [names, setNames] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [base, setBase] = useState<Base | null>(null);
  const [current, setCurrent] = useState(0);
  const [versions, setVersions] = useState<SchemaVersion[]>([]);
  const [text, setText] = useState('{}');
  const [note, setNote] = useState('');
  const [saved, setSaved] = useState('{}');
  const [serverErrors, setServerErrors] = useState<Problem[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [mode, setMode] = useState<'visual' | 'json'>(kind.visual ? 'visual' : 'json');
  // Loading an older version into the editor redraws the visual view from it.
  const [loads, setLoads] = useState(0);

  const load = useCallback(async (which: string) => {
    setBusy(true);
    setServerErrors([]);
    try {
      const loaded = await kind.load(which);
      setBase(loaded.base);
      setCurrent(loaded.current);
      setVersions(loaded.versions);
      const body = JSON.stringify(loaded.versions.find((x) => x.version === loaded.current)?.override ?? {}, null, 2);
      setText(body);
      setSaved(body);
      setNote('');
      setLoads((n) => n + 1);
    } catch (e) {
      setError(displayText(e, t('engine.loadFailed')));
    } finally {
      setBusy(false);
    }
  }, [kind, t]);

  useEffect(() => {
    kind.names().then((list) => {
      setNames(list);
      setName((n) => n || list[0] || '');
    }).catch((e) => setError(displayText(e, t('engine.loadFailed'))));
  }, [kind, t]);
  useEffect(() => { if (name) void load(name); }, [name, load]);

  const parsed = useMemo(() => parseOverride(text, t('schemaEditor.notObject')), [text, t]);
  const problems = useMemo<Problem[]>(() => {
    if (parsed.problem) return [{ path: 'JSON', message: parsed.problem }];
    return base && parsed.override ? kind.check(parsed.override, base, name) : [];
  }, [parsed, base, kind, name]);

  const save = async () => {
    if (!parsed.override || problems.length || !note.trim()) return;
    setBusy(true);
    setServerErrors([]);
    try {
      const res = await kind.save(name, parsed.override, note.trim());
      notify(t('schemaEditor.saved', { version: res.version }));
      await load(name);
    } catch (e) {
      const res = (e as { response?: { status?: number; data?: { errors?: unknown } } }).response;
      if (res?.status === 422) setServerErrors(serverProblems(res.data?.errors));
      else setError(displayText(e, t('engine.loadFailed')));
    } finally {
      setBusy(false);
    }
  };
  const rollback = async (version: number) => {
    if (!(await confirm({ title: t('schemaEditor.rollback'), message: t('schemaEditor.confirmRollback', { version }) }))) return;
    setBusy(true);
    try {
      const res = await kind.rollback(name, version);
      notify(t('schemaEditor.rolledBack', { version, current: res.version }));
      await load(name);
    } catch { /* the client showed the failure */ } finally {
      setBusy(false);
    }
  };

  const dirty = text !== saved;
  const allProblems = [...problems, ...serverErrors];
  const problemsBar = allProblems.length ? (
    <MessageBar intent="error" layout="multiline" data-testid={`${kind.id}-problems`}>
      <MessageBarBody>
        <MessageBarTitle>{t('schemaEditor.problems', { count: allProblems.length })}</MessageBarTitle>
        <ul className={s.problems}>{allProblems.map((p, i) => <li key={i}><b>{p.path}</b> {p.message}</li>)}</ul>
      </MessageBarBody>
    </MessageBar>
  ) : <MessageBar intent="success"><MessageBarBody>{kind.validText}</MessageBarBody></MessageBar>;
  const effectiveOf = (version: number) => (base
    ? kind.effective((version ? versions.find((v) => v.version === version)?.override ?? {} : {}) as Record<string, unknown>, base) : null);
  const versionsCard = (
    <Card>
      <CardHeader header={<b>{t('schemaEditor.versions')}</b>} />
      <HistoryPanel key={`${name}-${current}`} id={`${kind.id}-versions`} versions={versions} current={current} effectiveOf={effectiveOf} onRollback={rollback}
        onLoad={(v) => { setText(JSON.stringify(v.override ?? {}, null, 2)); setLoads((n) => n + 1); }} />
    </Card>
  );
  return (
    <div className={s.root} data-testid={`${kind.id}-editor`}>
      <div className={s.bar}>
        <Dropdown aria-label={kind.nameLabel} placeholder={kind.nameLabel} value={name} selectedOptions={name ? [name] : []}
          onOptionSelect={async (_, d) => {
            if (!d.optionValue || d.optionValue === name) return;
            if (dirty && !(await confirm({ title: t('schemaEditor.discardTitle'), message: t('schemaEditor.discard') }))) return;
            setName(d.optionValue);
          }}>
          {names.map((n) => <Option key={n} value={n}>{n}</Option>)}
        </Dropdown>
        <Button icon={<TextGrammarWand20Regular />} disabled={!parsed.override} onClick={() => { setText(JSON.stringify(parsed.override, null, 2)); setLoads((n) => n + 1); }}>{t('schemaEditor.format')}</Button>
        <Input value={note} onChange={(_, d) => setNote(d.value.slice(0, 500))} placeholder={t('designer.notePlaceholder')} aria-label={t('designer.note')} style={{ minWidth: 260 }} data-testid={`${kind.id}-note`} />
        <Button appearance="primary" icon={<Save20Regular />} disabled={busy || !dirty || problems.length > 0 || !note.trim()} onClick={save} data-testid={`${kind.id}-save`}>{t('schemaEditor.save')}</Button>
        {dirty && !note.trim() ? <span>{t('designer.noteRequired')}</span> : null}
        <span>{t('schemaEditor.current', { version: current })}</span>
        {busy ? <Spinner size="tiny" /> : null}
      </div>
      {error ? <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar> : null}
      {kind.visual ? (
        <TabList selectedValue={mode} onTabSelect={(_, d) => setMode(d.value as 'visual' | 'json')} data-testid={`${kind.id}-modes`}>
          <Tab value="visual">{t('designer.visual')}</Tab>
          <Tab value="json">{t('designer.asJson')}</Tab>
        </TabList>
      ) : null}
      {kind.visual && mode === 'visual' ? (
        <div className={s.editor}>
          {problemsBar}
          {base && parsed.override
            ? <div key={`${name}-${current}-${loads}`}>{kind.visual({ override: parsed.override, base, name, onOverride: (o) => { setText(JSON.stringify(o, null, 2)); setServerErrors([]); } })}</div>
            : <span>{t('schemaEditor.noPreview')}</span>}
          {versionsCard}
        </div>
      ) : (
        <div className={s.columns}>
          <div className={s.editor}>
            <JsonCodeEditor key={`${name}-${loads}`} initial={text} schema={kind.metaSchema} height={420} validText="" label={t('schemaEditor.override')}
              onText={(next) => { setText(next); setServerErrors([]); }} testId={`${kind.id}-override`} />
            {problemsBar}
          </div>
          <Card className={s.preview}>
            <CardHeader header={<b>{kind.mergedTitle}</b>} />
            {base && parsed.override && !problems.length
              ? <div data-testid={`${kind.id}-merged`}>{kind.preview(parsed.override, base)}</div>
              : <span>{t('schemaEditor.noPreview')}</span>}
          </Card>
        </div>
      )}
      {/* The history takes the page's width under the editor and its preview: the diff needs it. */}
      {kind.visual && mode === 'visual' ? null : versionsCard}
      {confirmDialog}
    </div>
  );
}
