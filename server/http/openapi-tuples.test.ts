import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { withoutTuples } from './openapi-tuples.js';

describe('withoutTuples', () => {
  it('turns a tuple of like elements into an array of that element, length kept', () => {
    const point = Type.Tuple([Type.Number({ minimum: -1 }), Type.Number({ minimum: -1 })]);
    expect(withoutTuples(JSON.parse(JSON.stringify(point)))).toEqual({ type: 'array', items: { type: 'number', minimum: -1 }, minItems: 2, maxItems: 2 });
  });

  it('gives unlike elements as anyOf, and reaches tuples nested anywhere', () => {
    const body = { properties: { p: { type: 'array', items: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false, minItems: 2, maxItems: 2 } } } };
    expect(withoutTuples(body)).toEqual({ properties: { p: { type: 'array', items: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, minItems: 2, maxItems: 2 } } } });
  });

  it('leaves the given schema as it was (the route validates with it)', () => {
    const schema = { type: 'array', items: [{ type: 'number' }], additionalItems: false };
    const copy = structuredClone(schema);
    withoutTuples(schema);
    expect(schema).toEqual(copy);
  });
});
