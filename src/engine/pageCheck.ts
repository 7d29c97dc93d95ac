import { unknownKinds, type KnownKinds } from '../core/pageKinds';
import { checkPageSchema, type SchemaProblem } from '../core/pageSchemaCheck';
import { searchWidgets } from '../widgets/search/fields';
import { actionKinds } from './actions';
import { cellKinds } from './cells';
import { liveSourceNames } from './liveSources';

/** What the registries hold now (the modules' registrations included once src/modules has loaded). */
export const knownKinds = (): KnownKinds => ({ cell: cellKinds(), action: actionKinds(), widget: searchWidgets(), live: liveSourceNames() });

/** The meta-schema's check, then the kinds the page names that no registry holds: what the designer shows as typed. */
export function checkPage(page: unknown): SchemaProblem[] {
  const shape = checkPageSchema(page);
  return shape.length ? shape : unknownKinds(page, knownKinds());
}
