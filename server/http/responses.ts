import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Response schemas for routes (issue 30): the OpenAPI document states them, and Fastify serialises 2xx answers with
 * them (fast-json-stringify), which drops any property a schema does not declare. So what is not described field by
 * field is declared open: data as any JSON, rows as objects keeping all their fields.
 */

/** Data a route does not describe field by field: any JSON value, serialised whole. */
export const AnyData = Type.Unknown();
/** A row whose fields come from data (resource definitions, schema documents, settings): every field kept. */
export const OpenRow = Type.Object({}, { additionalProperties: true });

/** The success envelope of envelope.ts, `{ code: 0, message: 'ok', data }`, for any 2xx. */
export function okResponse(data: TSchema = AnyData) {
  return { '2xx': Type.Object({ code: Type.Literal(0), message: Type.String(), data }) };
}

/**
 * A list row: an object of the resource's columns, declared as any JSON rather than an open object. fast-json-stringify
 * writes an open object key by key (a page of 100 case rows: 190 µs against JSON.stringify's 70), any JSON in one call.
 */
export const ListRow = Type.Unsafe<Record<string, unknown>>({ description: "A row: an object of the resource's columns" });

/** One page of a list (spec §7): the rows with the pager's numbers. */
export function pageOf(row: TSchema = ListRow) {
  return Type.Object({
    data: Type.Array(row), total: Type.Integer(), current_page: Type.Integer(), per_page: Type.Integer(), total_pages: Type.Integer(),
  });
}

/** A file's bytes: a Buffer or stream, which Fastify sends as it is (typed unknown: send() takes either, or nothing for a 304). */
const Binary = Type.Unsafe<unknown>({ type: 'string', format: 'binary' });

/** A route that answers a file or image: its media types, each a binary body. */
export function binaryResponse(...mediaTypes: string[]) {
  return { '2xx': { content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: Binary }])) } };
}

/** A spreadsheet export. */
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A route whose success is a redirect (no body to describe). */
export function redirectResponse(status: 301 | 302 | 303 | 307, description: string) {
  return { [status]: { description, type: 'null' } };
}

/** A JSON document that is not the envelope (IIIF, FHIR, OpenID): an object, every field kept. */
export function documentResponse(mediaType: string) {
  return { '2xx': { content: { [mediaType]: { schema: OpenRow } } } };
}
