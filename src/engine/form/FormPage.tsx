import { Button, MessageBar, MessageBarBody, Spinner, makeStyles, tokens, useId } from '@fluentui/react-components';
import { Suspense, useState } from 'react';
import { lazyChunk } from '../../shell/lazyChunk';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { fillTemplate } from '../../core/actions';
import { useLabel } from '../../widgets/useLabel';
import { ErrorPanel } from '../ErrorPanel';
import { PagePanels } from '../panels/registry';
import type { RendererProps } from '../registry';
import { useRecordForm } from './useRecordForm';

const SchemaForm = lazyChunk(() => import('./SchemaForm'));

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '960px' },
  title: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
});

/** A form page: creates a record of the page's resource, or edits the one named by the address (`/<id>` or `?id=`). */
export default function FormPage({ page, recordId }: RendererProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const location = useLocation();
  const formId = useId('page-form');
  const form = page.schema.form!;
  const id = recordId ?? new URLSearchParams(location.search).get('id') ?? undefined;
  const [generation, setGeneration] = useState(0);
  const navigate = useNavigate();
  const open = form.source && 'open' in form.source ? form.source.open : undefined;
  // After saving, the form starts again (empty after creating, with the saved values after editing), or leads where the source says.
  const { creating, state, serverErrors, saving, submit, canSave } = useRecordForm(form, page.resource, id, (saved) => {
    if (open) navigate(fillTemplate(open, saved));
    else setGeneration((g) => g + 1);
  });

  return (
    <div className={s.root} data-testid="form-page">
      <h2 className={s.title}>{label(page.schema.title ?? page.alias)}</h2>
      {!canSave ? <MessageBar intent="info"><MessageBarBody>{t('form.previewOnly')}</MessageBarBody></MessageBar> : null}
      {state.status === 'loading' ? <Spinner /> : state.status === 'error' ? <ErrorPanel title={t('engine.loadFailed')} text={state.text} /> : (
        <Suspense fallback={<Spinner />}>
          <SchemaForm key={`${id ?? (creating ? 'new' : 'record')}-${generation}`} form={form} creating={creating} initialData={state.record} serverErrors={serverErrors} formId={formId}
            disabled={saving} onSubmit={submit} />
        </Suspense>
      )}
      <div className={s.actions}>
        <Button appearance="primary" type="submit" form={formId} disabled={saving || !canSave || state.status !== 'ready'} data-testid="form-save">{t('form.save')}</Button>
      </div>
      <PagePanels names={page.schema.panels} />
    </div>
  );
}
