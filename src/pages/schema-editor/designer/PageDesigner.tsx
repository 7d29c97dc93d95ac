import { Button, Card, Dropdown, Input, MessageBar, MessageBarBody, MessageBarTitle, Option, Spinner, Tab, TabList, makeStyles, tokens } from '@fluentui/react-components';
import { Save20Regular } from '@fluentui/react-icons';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { api, displayText, unwrap } from '../../../api/client';
import { notify } from '../../../api/notify';
import { layerContract, layerOwnContract, withoutEmptyParts, type Contract, type ContractExtension } from '../../../core/contract';
import { checkDraftProblems, overrideOf, tidy } from '../../../core/designerDraft';
import { applyMergePatch } from '../../../core/mergePatch';
import type { LoadedSchema, PageSchema } from '../../../core/pageSchema';
import { checkContractExtension } from '../../../core/pageSchemaCheck';
import { checkPage } from '../../../engine/pageCheck';
import { withAddedFields } from '../../../core/resolvePage';
import { httpDataProvider } from '../../../engine/dataProvider';
import { useRules } from '../../../engine/rulesApi';
import { fetchBase, fetchVersions, forgetAllSchemas, loadEnums, loadResources, loadSchema, type Enums } from '../../../engine/schemaApi';
import { useConfirm } from '../../../widgets/dialogs/ConfirmDialog';
import { ActionsEditor, type RoleChoice } from './ActionsEditor';
import { ColumnsEditor } from './ColumnsEditor';
import { ConfigTransfer } from './ConfigTransfer';
import { CopyFromHospital } from './CopyFromHospital';
import { FormEditor } from './FormEditor';
import { HistoryPanel, type Version } from './HistoryPanel';
import { JsonView } from './JsonView';
import { PagePreview } from './PagePreview';
import { SearchEditor } from './SearchEditor';
import { TabsEditor } from './TabsEditor';
import { serverProblems } from '../overrideEditing';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  card: { padding: tokens.spacingHorizontalM, minWidth: 0 },
  problems: { margin: 0, paddingInlineStart: '18px', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
});

const enc = encodeURIComponent;
type View = 'columns' | 'search' | 'tabs' | 'form' | 'json' | 'preview' | 'history';
interface Loaded {
  base: PageSchema; page: LoadedSchema; versions: Version[];
  /**
   * The page's resource when the hospital can extend its contract (writable resources): the list's resource, or the
   * one a form with its own contract extends (CaseRegistration extends cases; `own` is that form's contract).
   */
  contract?: { name: string; base: Contract; ext: ContractExtension; version: number; versions: Version[]; own?: Contract };
}

async function loadAll(alias: string, writable: string[]): Promise<Loaded> {
  const [b, page, versions] = await Promise.all([fetchBase(alias), loadSchema(alias), fetchVersions(alias)]);
  const base = ('schema' in b && b.schema ? b.schema : b) as PageSchema;
  const form = page.schema.form as { extends?: string; contract?: Contract } | undefined;
  const own = form?.extends && form.contract ? form.contract : undefined;
  const name = page.schema.resource ?? (own ? form!.extends : undefined);
  if (!name || !writable.includes(name)) return { base, page, versions };
  const [cBase, layered, cVersions] = await Promise.all([
    unwrap<Contract>(api.get(`/contracts/${enc(name)}/base`)),
    unwrap<{ version: number; schema: ContractExtension }>(api.get(`/contracts/${enc(name)}`)),
    unwrap<Version[]>(api.get(`/contracts/${enc(name)}/versions`)),
  ]);
  return { base, page, versions, contract: { name, base: cBase, ext: layered.schema, version: layered.version, versions: cVersions, ...(own ? { own } : {}) } };
}

/**
 * The page designer: an administrator changes a page by pointing and typing (columns, the form and its rules),
 * or as JSON, previews it with the hospital's real data, and saves it with a note. The page goes to the layered
 * page store as a merge patch over its base; new form fields, requirements and rules go to the hospital's
 * contract extension of the page's resource, which the server checks every write against.
 */
export function PageDesigner({ aliases }: { aliases: string[] }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [confirmDialog, confirm] = useConfirm();
  const alias = params.get('page') && aliases.includes(params.get('page')!) ? params.get('page')! : aliases.includes('CaseList') ? 'CaseList' : aliases[0] ?? '';
  const [view, setView] = useState<View>('columns');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [draft, setDraft] = useState<PageSchema | null>(null);
  const [ext, setExt] = useState<ContractExtension>({});
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [serverErrors, setServerErrors] = useState<{ path: string; message: string }[]>([]);
  const [enums, setEnums] = useState<Enums>({});
  const [resources, setResources] = useState<string[]>([]);
  const [writable, setWritable] = useState<string[] | null>(null);
  const [roles, setRoles] = useState<RoleChoice[]>([]);
  // The hospital's rule sets: the search items show the operators its search-operators rules offer.
  const resolve = useRules();

  useEffect(() => {
    Promise.all([loadEnums(), loadResources(), unwrap<string[]>(api.get('/contracts'))]).then(([e, r, c]) => {
      setEnums(e);
      setResources(r.map((x) => x.name).sort());
      setWritable(c);
    }).catch((e) => setError(displayText(e, t('engine.loadFailed'))));
    // The roles an action can be shown to (schema_edit holders may not read roles: then the picker stays empty).
    httpDataProvider.getList({ route: '/api/system_management/roles' }, { pagination: { current: 1, pageSize: 100 } }, { silent: true })
      .then((res) => setRoles(res.data.map((r) => ({ identification: String(r.identification), name: String(r.name), en_name: r.en_name as string | null }))))
      .catch(() => setRoles([]));
  }, [t]);

  const load = useCallback(async () => {
    if (!alias || !writable) return;
    setBusy(true);
    setServerErrors([]);
    try {
      forgetAllSchemas();
      const l = await loadAll(alias, writable);
      setLoaded(l);
      setDraft(l.page.schema);
      setExt(l.contract?.ext ?? {});
      setNote('');
    } catch (e) {
      setError(displayText(e, t('engine.loadFailed')));
    } finally {
      setBusy(false);
    }
  }, [alias, writable, t]);
  useEffect(() => { void load(); }, [load]);

  const override = useMemo(() => (loaded && draft ? overrideOf(loaded.base, draft) : {}), [loaded, draft]);
  const savedOverride = useMemo(() => (loaded ? overrideOf(loaded.base, loaded.page.schema) : {}), [loaded]);
  const pageDirty = JSON.stringify(override) !== JSON.stringify(savedOverride);
  const extDirty = !!loaded?.contract && JSON.stringify(tidy(ext)) !== JSON.stringify(tidy(loaded.contract.ext));
  const problems = useMemo(() => {
    if (!draft) return [];
    const list = checkPage(draft).map((p) => ({ path: `page${p.path}`, message: p.message }));
    if (loaded?.contract) {
      // A check still being built is named in the designer's words; the meta-schema checks the rest of the extension.
      const unfinished = checkDraftProblems(ext);
      list.push(...unfinished.map((p) => ({ path: `fields/rules/checks/${p.index}`, message: t(`designer.checkProblem.${p.problem}`) })));
      const bad = new Set(unfinished.map((p) => p.index));
      const done = bad.size ? { ...ext, rules: { ...ext.rules, checks: ext.rules?.checks?.filter((_, i) => !bad.has(i)) } } : ext;
      list.push(...checkContractExtension(tidy(done), loaded.contract.base).map((p) => ({ path: `fields${p.path}`, message: p.message })));
    }
    return list;
  }, [draft, ext, loaded, t]);
  const contract = useMemo(() => (loaded?.contract ? layerContract(loaded.contract.base, tidy(ext)) : loaded?.page.resource?.contract), [loaded, ext]);
  // The columns and the search may use the fields the hospital added, those of the draft too (a field added a moment ago, not yet saved).
  const listFields = useMemo(() => withAddedFields(loaded?.page.resource?.fields ?? {}, contract), [loaded, contract]);

  const pageAt = useCallback((version: number) => {
    if (!loaded) return null;
    return version === 0 ? loaded.base : applyMergePatch(loaded.base, loaded.versions.find((v) => v.version === version)?.override ?? {});
  }, [loaded]);
  const contractAt = useCallback((version: number) => {
    if (!loaded?.contract) return null;
    return withoutEmptyParts(layerContract(loaded.contract.base, (loaded.contract.versions.find((v) => v.version === version)?.override ?? {}) as ContractExtension));
  }, [loaded]);

  if (!alias) return null;

  const pickPage = async (next: string) => {
    if (next === alias) return;
    if ((pageDirty || extDirty) && !(await confirm({ title: t('schemaEditor.discardTitle'), message: t('schemaEditor.discard') }))) return;
    setParams((p) => { p.set('page', next); return p; }, { replace: true });
  };

  const save = async () => {
    if (!loaded || !note.trim() || problems.length) return;
    setBusy(true);
    setServerErrors([]);
    try {
      // The fields first: the page may show what they add.
      if (extDirty && loaded.contract) await unwrap(api.put(`/contracts/${enc(loaded.contract.name)}`, { override: tidy(ext), note: note.trim() }, { silent: true }));
      if (pageDirty) await unwrap(api.put(`/schemas/${enc(alias)}`, { override, note: note.trim() }, { silent: true }));
      notify(t('designer.saved'));
      await load();
    } catch (e) {
      const res = (e as { response?: { status?: number; data?: { errors?: unknown } } }).response;
      if (res?.status === 422) setServerErrors(serverProblems(res.data?.errors));
      else setError(displayText(e, t('engine.loadFailed')));
      await load().catch(() => undefined);
    } finally {
      forgetAllSchemas();
      setBusy(false);
    }
  };

  const rollback = async (kind: 'page' | 'fields', version: number) => {
    if (!(await confirm({ title: t('schemaEditor.rollback'), message: t('schemaEditor.confirmRollback', { version }) }))) return;
    setBusy(true);
    try {
      const url = kind === 'page' ? `/schemas/${enc(alias)}/rollback` : `/contracts/${enc(loaded!.contract!.name)}/rollback`;
      const res = await unwrap<{ version: number }>(api.post(url, { version }));
      notify(t('schemaEditor.rolledBack', { version, current: res.version }));
      await load();
    } catch { /* the client showed the failure */ } finally {
      forgetAllSchemas();
      setBusy(false);
    }
  };

  // A page without a list (a form page) opens on its form, or its preview.
  const listView = view === 'columns' || view === 'search' || view === 'tabs';
  const shown: View = draft && !draft.list && listView ? (draft.form && loaded?.contract ? 'form' : 'preview') : view;
  const allProblems = [...problems, ...serverErrors];
  const dirty = pageDirty || extDirty;
  return (
    <div className={s.root} data-testid="page-designer">
      <div className={s.bar}>
        <Dropdown aria-label={t('schemaEditor.page')} value={alias} selectedOptions={[alias]} onOptionSelect={(_, d) => d.optionValue && void pickPage(d.optionValue)} data-testid="designer-page">
          {aliases.map((a) => <Option key={a} value={a}>{a}</Option>)}
        </Dropdown>
        <Input value={note} onChange={(_, d) => setNote(d.value.slice(0, 500))} placeholder={t('designer.notePlaceholder')} aria-label={t('designer.note')} style={{ minWidth: 260 }} data-testid="designer-note" />
        <Button appearance="primary" icon={<Save20Regular />} disabled={busy || !dirty || !note.trim() || problems.length > 0} onClick={save} data-testid="designer-save">{t('schemaEditor.save')}</Button>
        {dirty && !note.trim() ? <span>{t('designer.noteRequired')}</span> : null}
        {loaded ? <span>{t('designer.current', { page: loaded.page.version, fields: loaded.contract?.version ?? 0 })}</span> : null}
        {busy ? <Spinner size="tiny" /> : null}
        <ConfigTransfer onImported={load} />
        <CopyFromHospital />
      </div>
      {error ? <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar> : null}
      {allProblems.length ? (
        <MessageBar intent="error" layout="multiline" data-testid="designer-problems">
          <MessageBarBody>
            <MessageBarTitle>{t('schemaEditor.problems', { count: allProblems.length })}</MessageBarTitle>
            <ul className={s.problems}>{allProblems.map((p, i) => <li key={i}><b>{p.path}</b> {p.message}</li>)}</ul>
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <TabList selectedValue={shown} onTabSelect={(_, d) => setView(d.value as View)} data-testid="designer-views">
        {draft?.list ? <Tab value="columns">{t('designer.columns')}</Tab> : null}
        {draft?.list ? <Tab value="search">{t('designer.search')}</Tab> : null}
        {draft?.list ? <Tab value="tabs">{t('designer.tabsActions')}</Tab> : null}
        {draft?.form && loaded?.contract ? <Tab value="form">{t('designer.form')}</Tab> : null}
        <Tab value="preview">{t('designer.preview')}</Tab>
        <Tab value="history">{t('designer.history')}</Tab>
        <Tab value="json">{t('designer.json')}</Tab>
      </TabList>
      {loaded && draft ? (
        <Card className={s.card}>
          {shown === 'columns' && draft.list ? (
            <ColumnsEditor columns={draft.list.columns} fields={listFields} onChange={(columns) => setDraft({ ...draft, list: { ...draft.list!, columns } })} />
          ) : null}
          {shown === 'search' && draft.list ? (
            <SearchEditor search={draft.search} fields={listFields} resolve={resolve} onChange={(search) => setDraft({ ...draft, search })} />
          ) : null}
          {shown === 'tabs' && draft.list ? (
            <>
              <h3>{t('designer.tabs')}</h3>
              <TabsEditor tabs={draft.list.tabs ?? []} fields={loaded.page.resource?.fields ?? {}} enums={enums}
                onChange={(tabs) => setDraft({ ...draft, list: { ...draft.list!, tabs } })} />
              <h3>{t('designer.actions')}</h3>
              <ActionsEditor list={draft.list} roles={roles} onChange={(list) => setDraft({ ...draft, list })} />
            </>
          ) : null}
          {shown === 'form' && draft.form && loaded.contract ? (
            <FormEditor layout={draft.form.fields} onLayout={(fields) => setDraft({ ...draft, form: { ...draft.form!, fields } })}
              base={loaded.contract.own ?? loaded.contract.base} ext={ext} onExt={setExt} enums={enums} resourceNames={resources} />
          ) : null}
          {shown === 'json' ? <JsonView key={`${alias}-${loaded.page.version}`} page={draft} onPage={setDraft} /> : null}
          {shown === 'preview' ? (problems.length ? <span>{t('schemaEditor.noPreview')}</span> : <PagePreview page={{
            ...loaded.page, schema: draft, resource: loaded.page.resource && contract ? { ...loaded.page.resource, contract } : loaded.page.resource,
            // A form with its own contract previews with the draft's extension, as the server will layer it.
            ...(loaded.contract?.own ? { formContract: layerOwnContract(loaded.contract.own, tidy(ext)) } : {}),
          }} />) : null}
          {shown === 'history' ? (
            <>
              <h3>{t('designer.pageHistory')}</h3>
              <HistoryPanel key={`p-${loaded.page.version}`} id="page" versions={loaded.versions} current={loaded.page.version} effectiveOf={pageAt} onRollback={(v) => rollback('page', v)} />
              {loaded.contract ? (
                <>
                  <h3>{t('designer.fieldsHistory', { resource: loaded.contract.name })}</h3>
                  <HistoryPanel key={`c-${loaded.contract.version}`} id="fields" versions={loaded.contract.versions} current={loaded.contract.version} effectiveOf={contractAt} onRollback={(v) => rollback('fields', v)} />
                </>
              ) : null}
            </>
          ) : null}
        </Card>
      ) : <Spinner />}
      {confirmDialog}
    </div>
  );
}
