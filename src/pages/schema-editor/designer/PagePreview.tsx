import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../api/notify';
import type { LoadedSchema } from '../../../core/pageSchema';
import { DataProviderContext } from '../../../engine/dataContext';
import { httpDataProvider, type DataProvider } from '../../../engine/dataProvider';
import { PreviewContext } from '../../../engine/preload';
import { SchemaView } from '../../../engine/SchemaPage';
import { ErrorBoundaryPanel } from '../ErrorBoundaryPanel';

/** The draft page drawn by the engine with the hospital's real rows, before it is saved; it reads but never writes. */
export function PagePreview({ page }: { page: LoadedSchema }) {
  const { t } = useTranslation();
  const readOnly = useMemo<DataProvider>(() => {
    const refuse = () => {
      notify(t('schemaEditor.previewReadOnly'), 'warning');
      return Promise.reject(new Error('preview'));
    };
    return { ...httpDataProvider, create: refuse, update: refuse, deleteMany: refuse, custom: refuse };
  }, [t]);
  return (
    <div data-testid="designer-preview">
      <ErrorBoundaryPanel key={JSON.stringify(page.schema).length}>
        <PreviewContext.Provider value>
          <DataProviderContext.Provider value={readOnly}>
            <SchemaView page={page} basePath={`/schema-preview/${page.alias}`} />
          </DataProviderContext.Provider>
        </PreviewContext.Provider>
      </ErrorBoundaryPanel>
    </div>
  );
}
