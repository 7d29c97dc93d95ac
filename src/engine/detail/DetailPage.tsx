import { Button, Card, CardHeader, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowLeft20Regular, Edit20Regular } from '@fluentui/react-icons';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { displayText } from '../../api/client';
import { actionVisible } from '../../core/actions';
import type { Column, Label } from '../../core/pageSchema';
import { useLabel } from '../../widgets/useLabel';
import { ErrorPanel } from '../ErrorPanel';
import { SchemaBoundary } from '../SchemaBoundary';
import type { Row } from '../dataProvider';
import { useDataProvider } from '../dataContext';
import { FormDrawer } from '../form/FormDrawer';
import { Cell, useCellContext } from '../cells';
import { useEnums } from '../options';
import { usePreload } from '../preload';
import type { RendererProps } from '../registry';
import { useGrants } from '../useGrants';
import { useLiveRefresh } from '../list/useLiveRefresh';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '1100px' },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  title: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, flexGrow: 1 },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalXL}`, padding: `0 ${tokens.spacingHorizontalM} ${tokens.spacingVerticalM}` },
  field: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0 },
  label: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  value: { minHeight: '20px', overflowWrap: 'anywhere' },
});

/** Without a `detail` section, a record shows the list's columns as one section. */
const fallbackSections = (columns: Column[] = []): { title: Label; fields: Column[] }[] => [{ title: 'engine.details', fields: columns }];

/** One record from the page's `detail.sections` (spec §2 detail pages), reached from its list at `<list>/<id>`. */
export default function DetailPage({ page, recordId, basePath }: RendererProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const navigate = useNavigate();
  const location = useLocation();
  const dp = useDataProvider();
  const preload = usePreload();
  const enums = useEnums();
  const cellContext = useCellContext(enums);
  const grants = useGrants();
  const resource = page.resource;
  const schema = page.schema;
  const id = recordId ?? new URLSearchParams(location.search).get('id') ?? undefined;
  const [record, setRecord] = useState<Row | null>(preload?.record ?? null);
  const [error, setError] = useState('');
  const [editing, setEditing] = useState(false);
  const [reload, setReload] = useState(0);
  const sections = useMemo(() => schema.detail?.sections ?? fallbackSections(schema.list?.columns), [schema]);
  // A live record (a scanner's state) is read again on each realtime push and on the schema's beat; a failed read
  // keeps the last one shown.
  const repoll = useCallback(() => {
    if (resource && id) dp.getOne(resource, id).then(setRecord).catch(() => undefined);
  }, [dp, resource, id]);
  useLiveRefresh({ live: schema.detail?.live, refreshSeconds: schema.detail?.refreshSeconds, off: editing || !!preload, refetch: repoll });

  useEffect(() => {
    if (preload?.record || !resource || !id) return;
    let live = true;
    dp.getOne(resource, id).then((r) => live && setRecord(r)).catch((e) => live && setError(displayText(e, t('engine.loadFailed'))));
    return () => { live = false; };
  }, [resource, id, dp, preload, reload, t]);

  if (!resource) return <ErrorPanel title={t('engine.noResource', { resource: schema.resource ?? '—' })} />;

  const editAction = schema.list?.rowActions?.find((a) => a.kind === 'edit');
  const canEdit = !!record && !!schema.form && (editAction ? actionVisible(editAction, record, grants, resource.permissions) : actionVisible({ key: 'edit', label: '', kind: 'edit' }, record, grants, resource.permissions));
  const backToList = schema.type === 'list';
  // A detail page of its own (ScannerDetail is full-screen, without the header) goes back where it came from.
  const back = backToList
    ? <Button icon={<ArrowLeft20Regular />} appearance="subtle" onClick={() => navigate(basePath)} data-testid="detail-back">{t('engine.backToList')}</Button>
    : <Button icon={<ArrowLeft20Regular />} appearance="subtle" onClick={() => navigate(-1)} data-testid="detail-back">{t('engine.back')}</Button>;
  const bar = (
    <div className={s.bar}>
      {back}
      <h2 className={s.title}>{label(schema.title ?? schema.alias)}</h2>
      {canEdit ? <Button icon={<Edit20Regular />} onClick={() => setEditing(true)}>{editAction ? label(editAction.label) : t('form.edit')}</Button> : null}
    </div>
  );
  const problem = !id ? <ErrorPanel title={t('engine.noRecord')} /> : error ? <ErrorPanel title={t('engine.loadFailed')} text={error} /> : null;
  if (problem || !record) return <div className={s.root} data-testid="detail-page">{bar}{problem ?? <Spinner data-testid="engine-loading" />}</div>;

  return (
    <div className={s.root} data-testid="detail-page">
      {bar}
      {sections.map((section, i) => (
        <Card key={i}>
          <CardHeader header={<b>{label(section.title)}</b>} />
          <div className={s.grid}>
            {section.fields.map((f) => (
              <div key={f.field} className={s.field} data-field={f.field}>
                <span className={s.label}>{label(f.label)}</span>
                <span className={s.value}><Cell column={f} row={record} context={cellContext} /></span>
              </div>
            ))}
          </div>
        </Card>
      ))}
      {editing && schema.form ? (
        <SchemaBoundary path="/form"><FormDrawer open form={schema.form} resource={resource} id={id} title={label(schema.title ?? schema.alias)}
          onClose={() => setEditing(false)} onSaved={() => { setEditing(false); setReload((n) => n + 1); }} /></SchemaBoundary>
      ) : null}
    </div>
  );
}
