import type { ComponentType } from 'react';
import { lazyChunk } from '../shell/lazyChunk';
import PendingPage from '../pages/PendingPage';

/**
 * Menu alias → page. Hand-written pages register here; every alias with a base schema in
 * schemas/pages is rendered by the schema engine. Each is a lazy chunk so the shell stays small.
 * An alias with neither gets the pending panel.
 */
/**
 * The pages the engine draws get the modules' registrations into it (src/modules: link openers, live sources, action
 * kinds of one domain), loaded beside their own code: this file is where the app is put together, so it, not the
 * engine, names them.
 */
const withModules = <M,>(load: () => Promise<M>) => () => Promise.all([load(), import('../modules')]).then(([m]) => m);

const pages: Record<string, ComponentType> = {
  Dashboard: lazyChunk(() => import('../pages/DashboardPage')),
  SchemaEditor: lazyChunk(withModules(() => import('../pages/schema-editor/SchemaEditorPage'))),
  DssUpload: lazyChunk(() => import('../upload/DssUploadPage')),
  // Categories beside a schema list of the collected slides (schemas/pages/CaseCollection.json).
  CaseCollection: lazyChunk(withModules(() => import('../pages/collection/CaseCollectionPage'))),
  // Statistics (issue 16): filters, a chart and a table; the engine has no chart, so they are written by hand.
  SlideStatistics: lazyChunk(() => import('../pages/statistics/pages').then((m) => ({ default: m.SlideStatistics }))),
  ScannerStatistics: lazyChunk(() => import('../pages/statistics/pages').then((m) => ({ default: m.ScannerStatistics }))),
  ScanAccessStatistics: lazyChunk(() => import('../pages/statistics/pages').then((m) => ({ default: m.ScanAccessStatistics }))),
  SlideViewStatistics: lazyChunk(() => import('../pages/statistics/pages').then((m) => ({ default: m.SlideViewStatistics }))),
  IncomeStatistics: lazyChunk(() => import('../pages/statistics/pages').then((m) => ({ default: m.IncomeStatistics }))),
  LabelStatistics: lazyChunk(() => import('../pages/statistics/LabelStatisticsPage')),
  // Taking an exam (issue 32): the questions one attempt holds, the server's clock, the review; exams themselves are schema pages.
  ExamTake: lazyChunk(() => import('../pages/exams/ExamTakePage')),
};

const SchemaPage = lazyChunk(withModules(() => import('./SchemaPage')));

/**
 * Aliases that have a base schema. Only the file names reach the shell bundle (the glob is not
 * eager); the schema itself comes from GET /api/schemas/{alias} with the hospital's override merged.
 */
export const SCHEMA_ALIASES: ReadonlySet<string> = new Set(
  Object.keys(import.meta.glob('../../schemas/pages/*.json')).map((file) => file.replace(/^.*\/|\.json$/g, '')),
);

/** Schema pages, which the shell may keep drawn when left (KeptOutlet; a list page says so, keepWhenLeft). */
export const keptAlias = (alias: string) => !pages[alias] && SCHEMA_ALIASES.has(alias);

export function AliasPage({ alias, name }: { alias: string; name?: string }) {
  const Page = pages[alias];
  // Keyed by alias: another menu entry is a new page, never the last one's state (rows, selection) under a new schema.
  if (Page) return <Page key={alias} />;
  if (SCHEMA_ALIASES.has(alias)) return <SchemaPage key={alias} alias={alias} name={name} />;
  return <PendingPage alias={alias} name={name} />;
}
