import type { FastifyRequest } from 'fastify';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { coversCase, directoryRestriction } from '../../src/core/subspecialty.js';
import type { MessageKey } from '../i18n/messages.js';
import { AppError } from './errors.js';

/**
 * Subspecialty directories (spec §6), enforced where the hospital scope is: every query that reaches cases (lists,
 * a case, its reports, its slides and their tiles and annotations) narrows by the same rule, so a case outside the
 * user's directories is as absent as another hospital's, a forged id included (404, nothing of it told).
 * The rule itself is src/core/subspecialty.ts.
 */

/** The directories the request's user is limited to; undefined: all (administrators, users holding none). */
export const directoryScope = (request: FastifyRequest): number[] | undefined => directoryRestriction(request.auth!);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- used on cases and on tables that refer to them, named by data
type AnyEb = ExpressionBuilder<any, any>;

/** SQL: a case row (its directory column `column`, e.g. `cases.subspecialty_id`) within `dirs`; cases filed nowhere are everyone's. */
export function caseDirectoryWithin(eb: AnyEb, column: string, dirs: readonly number[]): Expression<SqlBool> {
  return eb.or([eb(column, 'is', null), eb(column, 'in', dirs.length ? [...dirs] : [-1])]);
}

/** SQL: a row whose case (`caseKey`, e.g. `slides.case_id`) is within `dirs`, or that belongs to no case. */
export function caseRefWithin(eb: AnyEb, caseKey: string, dirs: readonly number[]): Expression<SqlBool> {
  return eb.or([
    eb(caseKey, 'is', null),
    eb(caseKey, 'in', eb.selectFrom('cases as dir_case').select('dir_case.id').where((c: AnyEb) => caseDirectoryWithin(c, 'dir_case.subspecialty_id', dirs))),
  ]);
}

/** SQL: a row whose slide (`slideKey`, e.g. `collections.slide_id`) is within `dirs`: its case is (slides of no case are everyone's). */
export function slideRefWithin(eb: AnyEb, slideKey: string, dirs: readonly number[]): Expression<SqlBool> {
  return eb(slideKey, 'in', eb.selectFrom('slides as dir_slide').select('dir_slide.id').where((s: AnyEb) => caseRefWithin(s, 'dir_slide.case_id', dirs)));
}

/**
 * For code that has already read a case in the hospital scope: outside the request's directories it answers as
 * a missing case does (`notFound`: the caller's translated 404 key).
 */
export function requireDirectory(request: FastifyRequest, caseDirectory: number | null | undefined, notFound: MessageKey = 'case.not_found'): void {
  if (!coversCase(directoryScope(request), caseDirectory)) throw new AppError(404, notFound);
}
