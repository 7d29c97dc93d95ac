import { Button, DrawerBody, DrawerFooter, DrawerHeader, DrawerHeaderTitle, OverlayDrawer, Spinner, makeStyles, useId } from '@fluentui/react-components';
import { Dismiss24Regular } from '@fluentui/react-icons';
import { Suspense } from 'react';
import { lazyChunk } from '../../shell/lazyChunk';
import { useTranslation } from 'react-i18next';
import type { FormSchema, ResourceInfo } from '../../core/pageSchema';
import { ErrorPanel } from '../ErrorPanel';
import type { Row } from '../dataProvider';
import { useRecordForm } from './useRecordForm';

// rjsf and ajv load with the first form, not with the list.
const SchemaForm = lazyChunk(() => import('./SchemaForm'));

const useStyles = makeStyles({ drawer: { width: '720px', maxWidth: '100vw' }, footer: { justifyContent: 'flex-end' } });

export interface FormDrawerProps {
  open: boolean;
  form: FormSchema;
  resource: ResourceInfo | null;
  /** undefined: create; otherwise the record to edit. */
  id?: string;
  title: string;
  onClose(): void;
  onSaved(row: Row): void;
}

/** Create or edit a record of a list in a drawer over the list, so the list keeps its place. */
export function FormDrawer({ open, form, resource, id, title, onClose, onSaved }: FormDrawerProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const formId = useId('record-form');
  const { creating, state, serverErrors, saving, submit } = useRecordForm(form, resource, id, onSaved);
  return (
    <OverlayDrawer open={open} position="end" className={s.drawer} onOpenChange={(_, d) => !d.open && onClose()} data-testid="form-drawer">
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label={t('dialog.close')} icon={<Dismiss24Regular />} onClick={onClose} />}>
          {creating ? t('form.createTitle', { title }) : t('form.editTitle', { title })}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>
        {state.status === 'loading' ? <Spinner /> : state.status === 'error' ? <ErrorPanel title={t('engine.loadFailed')} text={state.text} /> : (
          <Suspense fallback={<Spinner />}>
            <SchemaForm key={id ?? 'new'} form={form} creating={creating} initialData={state.record} serverErrors={serverErrors} formId={formId} disabled={saving} onSubmit={submit} />
          </Suspense>
        )}
      </DrawerBody>
      <DrawerFooter className={s.footer}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button appearance="primary" type="submit" form={formId} disabled={saving || state.status !== 'ready'} data-testid="form-save">{t('form.save')}</Button>
      </DrawerFooter>
    </OverlayDrawer>
  );
}
