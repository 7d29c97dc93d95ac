import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { boundedRouteSchema, inspectInput, isIdName, MAX_DEPTH, MAX_ID } from './hostile-input.js';

describe('ids bounded in route schemas', () => {
  it('names ids as the routes do', () => {
    for (const name of ['id', 'ids', 'slide_id', 'role_ids', 'caseId', 'slideIds']) expect(isIdName(name), name).toBe(true);
    for (const name of ['page', 'width', 'valid', 'paid', 'idle', 'kind']) expect(isIdName(name), name).toBe(false);
  });

  it('gives every id field the largest id as its maximum, nested and in arrays, and leaves other integers alone', () => {
    const shared = Type.Integer({ minimum: 1 });
    const schema = {
      params: Type.Object({ id: shared }),
      querystring: Type.Object({ page: Type.Integer({ minimum: 1 }), slide_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])) }),
      body: Type.Object({ role_ids: Type.Array(shared), owner: Type.Object({ userId: Type.Number({ maximum: 10 }) }), size: shared }),
    };
    // The copy as plain JSON Schema, read by path.
    const bounded = JSON.parse(JSON.stringify(boundedRouteSchema(schema)));
    expect(bounded.params.properties.id).toMatchObject({ type: 'integer', minimum: 1, maximum: MAX_ID });
    expect(bounded.querystring.properties.page.maximum).toBeUndefined();
    expect(bounded.querystring.properties.slide_id.anyOf[0].maximum).toBe(MAX_ID);
    expect(bounded.body.properties.role_ids.items.maximum).toBe(MAX_ID);
    // A lower maximum of its own stays.
    expect(bounded.body.properties.owner.properties.userId.maximum).toBe(10);
    expect(bounded.body.properties.size.maximum).toBeUndefined();
    // The shared schema object other routes use is not changed.
    expect(shared.maximum).toBeUndefined();
    expect(schema.params.properties.id.maximum).toBeUndefined();
  });
});

describe('NUL and nesting in request input', () => {
  it('finds a NUL in any string or key, however deep, and names its field', () => {
    expect(inspectInput({ body: { patient: { name: 'a\u0000b' } } })).toEqual({ nul: 'body.patient.name' });
    expect(inspectInput({ query: { q: ['x', 'y\u0000'] } })).toEqual({ nul: 'query.q.1' });
    expect(inspectInput({ body: { ['k\u0000']: 1 } })).toEqual({ nul: 'body.k\u0000' });
    expect(inspectInput({ params: { id: '\u0000' } })).toEqual({ nul: 'params.id' });
    expect(inspectInput({ body: { name: 'ordinary 文本', n: 3, list: [null, true] } })).toEqual({});
  });

  it('refuses nesting past the limit without overflowing the stack, and accepts it up to the limit', () => {
    const nest = (depth: number) => {
      let v: unknown = 'x';
      for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v];
      return v;
    };
    expect(inspectInput({ body: nest(200_000) }).tooDeep).toMatch(/^body/);
    expect(inspectInput({ body: nest(MAX_DEPTH) })).toEqual({});
    expect(inspectInput({ body: nest(MAX_DEPTH + 1) }).tooDeep).toBeDefined();
  });

  it('leaves bodies that are not parsed JSON alone (a Buffer, a stream)', () => {
    expect(inspectInput({ body: Buffer.from('a\u0000b') })).toEqual({});
  });
});
