import {
  Button, Card, CardHeader, Dropdown, MessageBar, MessageBarBody, MessageBarTitle, Option, Spinner, Tab, TabList, Textarea,
} from '@fluentui/react-components';
import { Save20Regular, TextGrammarWand20Regular } from '@fluentui/react-icons';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, displayText, unwrap } from '../../api/client';
import { notify } from '../../api/notify';
import { isGranted } from '../../core/actions';
import { applyMergePatch } from '../../core/mergePatch';
import type { LoadedSchema, PageSchema } from '../../core/pageSchema';
import type { SchemaProblem } from '../../core/pageSchemaCheck';
import { checkPage } from '../../engine/pageCheck';
import { DataProviderContext } from '../../engine/dataContext';
import { httpDataProvider, type DataProvider } from '../../engine/dataProvider';
import { ErrorBoundaryPanel } from './ErrorBoundaryPanel';
import { PreviewContext } from '../../engine/preload';
import { fetchBase, fetchVersions, forgetSchema, loadSchema, rollbackSchema, saveOverride, type SchemaVersion } from '../../engine/schemaApi';
import { SchemaView } from '../../engine/SchemaPage';
import { useGrants } from '../../engine/useGrants';
import { useConfirm } from '../../widgets/dialogs/ConfirmDialog';
import { ContractEditor } from './ContractEditor';
import { RuleSetEditor } from './RuleSetEditor';
import { parseOverride, serverProblems, useOverrideEditorStyles } from './overrideEditing';
import { VersionList } from './VersionList';
import { MenuDesigner } from './designer/MenuDesigner';
import { PageDesigner } from './designer/PageDesigner';
import './words';

/**
 * The schema editor for administrators: pick a page, edit this hospital's override (a JSON merge
 * patch over the base schema) with the meta-schema checked as you type, see the merged page rendered
 * by the engine beside it, save it as a new version, or roll back to an earlier one.
 */
export default function SchemaEditorPage() {
  const s = useOverrideEditorStyles();
  const { t } = useTranslation();
  const grants = useGrants();
  const [confirmDialog, confirm] = useConfirm();
  const [aliases, setAliases] = useState<string[]>([]);
  const [alias, setAlias] = useState('');
  const [base, setBase] = useState<PageSchema | null>(null);
  const [loaded, setLoaded] = useState<LoadedSchema | null>(null);
  const [versions, setVersions] = useState<SchemaVersion[]>([]);
  const [text, setText] = useState('{}');
  const [saved, setSaved] = useState('{}');
  const [serverErrors, setServerErrors] = useState<SchemaProblem[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [kind, setKind] = useState<'designer' | 'page' | 'rule' | 'contract' | 'menu'>('designer');
  const allowed = isGranted('schema_edit', grants);

  useEffect(() => {
    if (!allowed) return;
    unwrap<string[]>(api.get('/schemas')).then((list) => {
      setAliases(list);
      setAlias((a) => a || list[0] || '');
    }).catch((e) => setError(displayText(e, t('engine.loadFailed'))));
  }, [allowed, t]);

  const load = useCallback(async (name: string) => {
    setBusy(true);
    setServerErrors([]);
    try {
      forgetSchema(name);
      const [b, l, v] = await Promise.all([fetchBase(name), loadSchema(name), fetchVersions(name)]);
      setBase(('schema' in b && b.schema ? b.schema : b) as PageSchema);
      setLoaded(l);
      setVersions(v);
      const current = v.find((x) => x.version === l.version)?.override ?? {};
      const body = JSON.stringify(current, null, 2);
      setText(body);
      setSaved(body);
    } catch (e) {
      setError(displayText(e, t('engine.loadFailed')));
    } finally {
      setBusy(false);
    }
  }, [t]);
  useEffect(() => { if (alias && kind === 'page') void load(alias); }, [alias, load, kind]);

  const parsed = useMemo(() => parseOverride(text, t('schemaEditor.notObject')), [text, t]);
  const merged = useMemo(() => (base && parsed.override ? applyMergePatch(base, parsed.override) : null), [base, parsed.override]);
  const problems = useMemo<SchemaProblem[]>(() => {
    if (parsed.problem) return [{ path: 'JSON', message: parsed.problem }];
    if (!merged) return [];
    const list = checkPage(merged);
    if (merged.alias !== alias) list.push({ path: '/alias', message: t('schemaEditor.aliasFixed', { alias }) });
    return list;
  }, [parsed.problem, merged, alias, t]);

  // The preview reads real data but never writes it.
  const readOnly = useMemo<DataProvider>(() => {
    const refuse = () => {
      notify(t('schemaEditor.previewReadOnly'), 'warning');
      return Promise.reject(new Error('preview'));
    };
    return { ...httpDataProvider, create: refuse, update: refuse, deleteMany: refuse, custom: refuse };
  }, [t]);

  if (!allowed) return <MessageBar intent="warning"><MessageBarBody>{t('schemaEditor.notAllowed')}</MessageBarBody></MessageBar>;

  // Pages and rule sets (schemas/rules) share the store and the editing flow; the rule sets have their own half.
  const kinds = (
    <TabList selectedValue={kind} onTabSelect={async (_, d) => {
      if (d.value === kind) return;
      if (kind === 'page' && text !== saved && !(await confirm({ title: t('schemaEditor.discardTitle'), message: t('schemaEditor.discard') }))) return;
      setKind(d.value as 'designer' | 'page' | 'rule' | 'contract' | 'menu');
    }} data-testid="schema-kind">
      <Tab value="designer">{t('designer.tab')}</Tab>
      <Tab value="page" data-testid="schema-kind-page">{t('designer.patchTab')}</Tab>
      <Tab value="contract">{t('schemaEditor.kindContracts')}</Tab>
      <Tab value="rule">{t('schemaEditor.kindRules')}</Tab>
      <Tab value="menu" data-testid="schema-kind-menu">{t('designer.menuTab')}</Tab>
    </TabList>
  );
  // The designer is the administrators' way in; the merge-patch editor stays for experts.
  if (kind === 'designer') return <div className={s.root}>{kinds}{aliases.length ? <PageDesigner aliases={aliases} /> : <Spinner />}{confirmDialog}</div>;
  if (kind === 'menu') return <div className={s.root}>{kinds}<MenuDesigner />{confirmDialog}</div>;
  if (kind === 'rule') return <div className={s.root}>{kinds}<RuleSetEditor />{confirmDialog}</div>;
  if (kind === 'contract') return <div className={s.root}>{kinds}<ContractEditor />{confirmDialog}</div>;

  const save = async () => {
    if (!parsed.override || problems.length) return;
    setBusy(true);
    setServerErrors([]);
    try {
      const res = await saveOverride(alias, parsed.override);
      notify(t('schemaEditor.saved', { version: res.version }));
      await load(alias);
    } catch (e) {
      const res = (e as { response?: { status?: number; data?: { errors?: unknown } } }).response;
      if (res?.status === 422) setServerErrors(serverProblems(res.data?.errors));
      if (!res || res.status !== 422) setError(displayText(e, t('engine.loadFailed')));
    } finally {
      setBusy(false);
    }
  };
  const rollback = async (version: number) => {
    if (!(await confirm({ title: t('schemaEditor.rollback'), message: t('schemaEditor.confirmRollback', { version }) }))) return;
    setBusy(true);
    try {
      const res = await rollbackSchema(alias, version);
      notify(t('schemaEditor.rolledBack', { version, current: res.version }));
      await load(alias);
    } catch { /* the client showed the failure */ } finally {
      setBusy(false);
    }
  };

  const dirty = text !== saved;
  const allProblems = [...problems, ...serverErrors];
  return (
    <div className={s.root} data-testid="schema-editor">
      {kinds}
      <div className={s.bar}>
        <Dropdown aria-label={t('schemaEditor.page')} placeholder={t('schemaEditor.page')} value={alias} selectedOptions={alias ? [alias] : []}
          onOptionSelect={async (_, d) => {
            if (!d.optionValue || d.optionValue === alias) return;
            if (dirty && !(await confirm({ title: t('schemaEditor.discardTitle'), message: t('schemaEditor.discard') }))) return;
            setAlias(d.optionValue);
          }}>
          {aliases.map((a) => <Option key={a} value={a}>{a}</Option>)}
        </Dropdown>
        <Button icon={<TextGrammarWand20Regular />} disabled={!parsed.override} onClick={() => setText(JSON.stringify(parsed.override, null, 2))}>{t('schemaEditor.format')}</Button>
        <Button appearance="primary" icon={<Save20Regular />} disabled={busy || !dirty || problems.length > 0} onClick={save} data-testid="schema-save">{t('schemaEditor.save')}</Button>
        {loaded ? <span>{t('schemaEditor.current', { version: loaded.version })}</span> : null}
        {busy ? <Spinner size="tiny" /> : null}
      </div>
      {error ? <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar> : null}
      <div className={s.columns}>
        <div className={s.editor}>
          <Textarea className={s.code} textarea={{ className: s.code, spellCheck: false }} value={text} resize="vertical"
            aria-label={t('schemaEditor.override')} onChange={(_, d) => { setText(d.value); setServerErrors([]); }} data-testid="schema-override" />
          {allProblems.length ? (
            <MessageBar intent="error" layout="multiline" data-testid="schema-problems">
              <MessageBarBody>
                <MessageBarTitle>{t('schemaEditor.problems', { count: allProblems.length })}</MessageBarTitle>
                <ul className={s.problems}>{allProblems.map((p, i) => <li key={i}><b>{p.path}</b> {p.message}</li>)}</ul>
              </MessageBarBody>
            </MessageBar>
          ) : <MessageBar intent="success"><MessageBarBody>{t('schemaEditor.valid')}</MessageBarBody></MessageBar>}
          <Card>
            <CardHeader header={<b>{t('schemaEditor.versions')}</b>} />
            <VersionList versions={versions} current={loaded?.version ?? 0} onRollback={rollback}
              onLoad={(v) => setText(JSON.stringify(v.override ?? {}, null, 2))} />
          </Card>
        </div>
        <Card className={s.preview}>
          <CardHeader header={<b>{t('schemaEditor.preview')}</b>} />
          {merged && loaded && !problems.length ? (
            <ErrorBoundaryPanel key={text}>
              <PreviewContext.Provider value>
                <DataProviderContext.Provider value={readOnly}>
                  <SchemaView page={{ ...loaded, schema: merged }} basePath={`/schema-preview/${alias}`} />
                </DataProviderContext.Provider>
              </PreviewContext.Provider>
            </ErrorBoundaryPanel>
          ) : <span>{t('schemaEditor.noPreview')}</span>}
        </Card>
      </div>
      {confirmDialog}
    </div>
  );
}
