import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startApp, type Harness } from './harness.js';

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;
interface OpenApiPaths { paths: Record<string, Record<string, { responses?: Responses }>> }

describe.each(databases)('OpenAPI document [%s]', (kind) => {
  let h: Harness;
  beforeAll(async () => { h = await startApp(kind); });
  afterAll(async () => { await h.close(); });

  it('is served as JSON and YAML to anyone', async () => {
    const json = await h.app.inject({ url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json().openapi).toMatch(/^3\.0\./);
    const yaml = await h.app.inject({ url: '/api/docs/yaml' });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toMatch(/^openapi: 3\.0\./m);
  });

  it('passes swagger-parser validation', async () => {
    const res = await h.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    // validate() dereferences in place: give it a copy of its own.
    const api = await SwaggerParser.validate(structuredClone(res.json()));
    expect(Object.keys(api.paths ?? {}).length).toBeGreaterThan(100);
  });

  it('declares a 2xx response schema for every operation', async () => {
    const doc = (await h.app.inject({ url: '/api/docs/json' })).json() as OpenApiPaths;
    const operations = Object.entries(doc.paths).flatMap(([url, item]) => Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${url}`, op })));
    expect(operations.length).toBeGreaterThan(300);
    // A body schema under some 2xx, or else only redirects declared (an address to go to, no body).
    const declared = (responses: Responses) => Object.entries(responses)
      .some(([status, response]) => /^2/.test(status) && Object.values(response.content ?? {}).some((c) => c.schema !== undefined))
      || (Object.keys(responses).length > 0 && Object.keys(responses).every((status) => /^3/.test(status)));
    const undeclared = operations.filter(({ op }) => !declared(op.responses ?? {}));
    expect(undeclared.map((o) => o.name)).toEqual([]);
  });

  it('states the media types of files and images, and the envelope of JSON answers', async () => {
    const doc = (await h.app.inject({ url: '/api/docs/json' })).json() as OpenApiPaths;
    const mediaTypes = (url: string, method = 'get') => Object.keys(doc.paths[url][method].responses?.['2XX']?.content ?? {});
    expect(mediaTypes('/api/diagnosis/reports/{id}/pdf')).toEqual(['application/pdf']);
    expect(mediaTypes('/api/tiles/{files}/{level}/{tile}')).toEqual(['image/jpeg']);
    expect(mediaTypes('/api/iiif/{slideKey}/{region}/{size}/{rotation}/{qualityFormat}')).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    expect(mediaTypes('/api/pathology/export', 'post')).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    expect(Object.keys(doc.paths['/api/auth/sso/start'].get.responses ?? {})).toEqual(['302']);
    const envelope = doc.paths['/api/system_management/users/menu'].get.responses?.['2XX']?.content?.['application/json']?.schema;
    expect(envelope).toMatchObject({ type: 'object', required: ['code', 'message', 'data'] });
  });
});
