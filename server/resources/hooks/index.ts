import { caseHooks } from '../../modules/cases/hooks.js';
import { categoryHooks, collectionHooks } from '../../modules/collections/hooks.js';
import type { ResourceHooks } from './types.js';
import { rolesHooks } from './roles.js';
import { usersHooks } from './users.js';

/** Resource JSON names its hooks by key; the code behind each key lives beside this file. */
export const hooksByName: Record<string, ResourceHooks> = {
  users: usersHooks,
  roles: rolesHooks,
  cases: caseHooks,
  collection_categories: categoryHooks,
  collections: collectionHooks,
};
