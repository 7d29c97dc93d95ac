import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import PendingPage from '../pages/PendingPage';

/**
 * Menu alias → page. Hand-written pages register here; every alias with a base schema in
 * schemas/pages is rendered by the schema engine. Each is a lazy chunk so the shell stays small.
 * An alias with neither gets the pending panel.
 */
const pages: Record<string, LazyExoticComponent<ComponentType>> = {
  Dashboard: lazy(() => import('../pages/DashboardPage')),
  SchemaEditor: lazy(() => import('../pages/schema-editor/SchemaEditorPage')),
  DssUpload: lazy(() => import('../upload/DssUploadPage')),
  // Categories beside a schema list of the collected slides (schemas/pages/CaseCollection.json).
  CaseCollection: lazy(() => import('../pages/collection/CaseCollectionPage')),
};

const SchemaPage = lazy(() => import('./SchemaPage'));

/**
 * Aliases that have a base schema. Only the file names reach the shell bundle (the glob is not
 * eager); the schema itself comes from GET /api/schemas/{alias} with the hospital's override merged.
 */
export const SCHEMA_ALIASES: ReadonlySet<string> = new Set(
  Object.keys(import.meta.glob('../../schemas/pages/*.json')).map((file) => file.replace(/^.*\/|\.json$/g, '')),
);

export function AliasPage({ alias, name }: { alias: string; name?: string }) {
  const Page = pages[alias];
  if (Page) return <Page />;
  if (SCHEMA_ALIASES.has(alias)) return <SchemaPage alias={alias} name={name} />;
  return <PendingPage alias={alias} name={name} />;
}
