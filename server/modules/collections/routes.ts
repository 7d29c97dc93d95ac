import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import type { TypedApp } from '../../http/types.js';
import type { ResourceDef } from '../../resources/definition.js';
import { getRow, insertRow } from '../../resources/queries.js';
import { checkCollectable, collectionHooks } from './hooks.js';
import { categoryNamed, createCategory } from './queries.js';
import { categoryName } from './rules.js';
import { okResponse } from '../../http/responses.js';

const SlideId = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const Body = Type.Object({
  category_id: Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 200 }), Type.Null()])),
  remark: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
});

/**
 * Collect a slide from a slide list (spec §5 favourite): the slide comes in the address, so a row
 * action can say `/api/collection/items/collect/{id}`, and the category in the body as the action's
 * prompt sends it: an id (as number or text), nothing (uncategorised), or a name typed into the
 * select-or-type prompt, which finds the user's category of that name or makes it.
 */
export function collectionRoutes(app: TypedApp, db: Db, def: ResourceDef): void {
  app.post('/api/collection/items/collect/:id', {
    config: { access: { permission: def.permissions.create! } },
    schema: { tags: [`resource:${def.name}`], params: SlideId, body: Body, response: okResponse() },
    // A row action without a prompt sends no body at all: that is an empty one, uncategorised.
    preValidation: async (request) => { request.body ??= {}; },
  }, async (request) => {
    const { params: { id: slideId }, body } = request;
    const user = request.auth!;
    // Refusals first, so a typed category name is not created for a slide that cannot be collected.
    await checkCollectable(db, user, slideId);
    const categoryId = await categoryFor(db, user.id, body.category_id);
    const id = await insertRow(db, def, collectionHooks, { slide_id: slideId, category_id: categoryId, remark: body.remark ?? null }, { creating: true, user });
    return ok(await getRow(db, def, collectionHooks, id, [user.id]));
  });
}

/** The prompt's answer as a category id: empty → none; digits → that id (the hooks check it is the user's); text → by name. */
async function categoryFor(db: Db, userId: number, value: number | string | null | undefined): Promise<number | null> {
  if (value === null || value === undefined || (typeof value === 'string' && !value.trim())) return null;
  if (typeof value === 'number') return value;
  if (/^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  const name = categoryName(value);
  const found = await categoryNamed(db, userId, name);
  return found ? found.id : createCategory(db, userId, name);
}
