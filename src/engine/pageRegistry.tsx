import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import PendingPage from '../pages/PendingPage';

/**
 * Menu alias → page. Schema-driven pages (issue: schema engine) and hand-written ones register here;
 * each is a lazy chunk so the shell stays small. An alias with no page gets the pending panel.
 */
const pages: Record<string, LazyExoticComponent<ComponentType>> = {
  Dashboard: lazy(() => import('../pages/DashboardPage')),
};

export function AliasPage({ alias, name }: { alias: string; name?: string }) {
  const Page = pages[alias];
  return Page ? <Page /> : <PendingPage alias={alias} name={name} />;
}
