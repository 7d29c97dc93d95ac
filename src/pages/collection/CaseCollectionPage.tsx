import { Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { displayText } from '../../api/client';
import { notify } from '../../api/notify';
import type { LoadedSchema } from '../../core/pageSchema';
import { DataProviderContext, useDataProvider } from '../../engine/dataContext';
import { ErrorPanel } from '../../engine/ErrorPanel';
import { SchemaView } from '../../engine/SchemaPage';
import { loadSchema } from '../../engine/schemaApi';
import { useConfirm } from '../../widgets/dialogs/ConfirmDialog';
import { CATEGORY_PARAM, categoryParam, parseCategory, type CategoryKey } from './categoryFilter';
import { CategoryNameDialog } from './CategoryNameDialog';
import { CategoryPanel } from './CategoryPanel';
import { categoryProvider } from './categoryProvider';
import { createCategory, deleteCategory, listCategories, renameCategory, totals as loadTotals, type Category, type Totals } from './collectionApi';

const ALIAS = 'CaseCollection';

const useStyles = makeStyles({
  root: { display: 'flex', gap: tokens.spacingHorizontalL, alignItems: 'stretch', minWidth: 0 },
  list: { flexGrow: 1, minWidth: 0 },
});

type SchemaState = { status: 'loading' } | { status: 'ready'; page: LoadedSchema } | { status: 'error'; text: string };
type NameDialog = { mode: 'create' } | { mode: 'rename'; category: Category } | null;

/**
 * CaseCollection (spec §3 collection categories, §5 favourites): the doctor's categories on the left,
 * drawn here; the collected slides on the right, drawn by the schema engine from
 * schemas/pages/CaseCollection.json, limited to the chosen category (kept in the address as `?category=`).
 */
export default function CaseCollectionPage() {
  const s = useStyles();
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const splat = useParams()['*'];
  const baseProvider = useDataProvider();
  const [schema, setSchema] = useState<SchemaState>({ status: 'loading' });
  const [categories, setCategories] = useState<Category[] | null>(null);
  const [totals, setTotals] = useState<Totals | null>(null);
  // Bumped when a category changes under the list (renamed, deleted): the list reads its rows afresh.
  const [version, setVersion] = useState(0);
  const [nameDialog, setNameDialog] = useState<NameDialog>(null);
  const [confirmDialog, confirm] = useConfirm();

  const selected = parseCategory(new URLSearchParams(location.search).get(CATEGORY_PARAM));
  const basePath = location.pathname.replace(/\/+$/, '');

  const loadSchemaState = useCallback(() => {
    let live = true;
    setSchema({ status: 'loading' });
    loadSchema(ALIAS).then((page) => live && setSchema({ status: 'ready', page }))
      .catch((e) => live && setSchema({ status: 'error', text: displayText(e, t('engine.loadFailed')) }));
    return () => { live = false; };
  }, [t]);
  useEffect(loadSchemaState, [loadSchemaState]);

  // Failures were already shown by the API client's toast; the counts just stay as they were.
  const reloadSide = useCallback(() => Promise.all([
    listCategories().then(setCategories).catch(() => {}),
    loadTotals().then(setTotals).catch(() => {}),
  ]), []);
  useEffect(() => { void reloadSide(); }, [reloadSide]);

  const select = useCallback((key: CategoryKey) => {
    const q = new URLSearchParams(location.search);
    const value = categoryParam(key);
    if (value === null) q.delete(CATEGORY_PARAM);
    else q.set(CATEGORY_PARAM, value);
    // Another category starts on its first page.
    if (q.has('page')) q.set('page', '1');
    navigate({ pathname: location.pathname, search: q.toString() }, { replace: true });
  }, [location.pathname, location.search, navigate]);

  // A link to a category that is gone (deleted, or another user's) shows all favourites instead.
  useEffect(() => {
    if (typeof selected === 'number' && categories && !categories.some((c) => c.id === selected)) select('all');
  }, [selected, categories, select]);

  const provider = useMemo(() => categoryProvider(baseProvider, selected, () => void reloadSide()), [baseProvider, selected, reloadSide]);

  const saveName = async (name: string) => {
    if (nameDialog?.mode === 'rename') {
      await renameCategory(nameDialog.category.id, name);
      notify(t('collection.renamed', { name }));
      setVersion((v) => v + 1);
    } else {
      const created = await createCategory(name);
      notify(t('collection.created', { name }));
      // The new category must be known before it is chosen, or the page would take it for a stale link.
      await reloadSide();
      select(created.id);
      return;
    }
    await reloadSide();
  };

  const remove = async (category: Category) => {
    const ok = await confirm({
      title: t('collection.deleteTitle'),
      message: t('collection.deleteConfirm', { name: category.name, count: category.item_count }),
      danger: true,
    });
    if (!ok) return;
    try {
      await deleteCategory(category.id);
    } catch {
      return; // the client showed why
    }
    notify(t('collection.deleted', { name: category.name }));
    if (selected === category.id) select('all');
    setVersion((v) => v + 1);
    void reloadSide();
  };

  if (splat) return <Navigate to="/404" replace />;
  return (
    <div className={s.root} data-testid="case-collection">
      <CategoryPanel categories={categories ?? []} totals={totals} selected={selected} onSelect={select}
        onCreate={() => setNameDialog({ mode: 'create' })} onRename={(category) => setNameDialog({ mode: 'rename', category })} onDelete={(c) => void remove(c)} />
      <div className={s.list}>
        {schema.status === 'loading' ? <Spinner data-testid="engine-loading" /> : schema.status === 'error' ? (
          <ErrorPanel title={t('engine.loadFailed')} text={schema.text} onRetry={loadSchemaState} />
        ) : (
          <DataProviderContext.Provider value={provider}>
            <SchemaView key={`${String(selected)}:${version}`} page={schema.page} basePath={basePath} />
          </DataProviderContext.Provider>
        )}
      </div>
      {nameDialog ? (
        <CategoryNameDialog title={nameDialog.mode === 'create' ? t('collection.createTitle') : t('collection.renameTitle')}
          initialName={nameDialog.mode === 'rename' ? nameDialog.category.name : ''} onSave={saveName} onClose={() => setNameDialog(null)} />
      ) : null}
      {confirmDialog}
    </div>
  );
}
