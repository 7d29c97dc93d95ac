import type { FastifyRequest } from 'fastify';
import type { RuleResolver, Warn } from '../../src/core/rules.js';
import { writeGuardRefusal, type WriteOperation } from '../../src/core/writeGuards.js';
import { AppError } from '../http/errors.js';
import type { ResourceDef } from './definition.js';
import type { Row } from './hooks/types.js';

/**
 * A resource's `writeGuards` (src/core/writeGuards.ts) on one write: the first that does not hold is a 422 in the
 * caller's language, its message both the answer's and the named field's, before anything is written.
 */
export function guardWrite(def: ResourceDef, request: FastifyRequest, operation: WriteOperation, rows: { record: Record<string, unknown> | null; old: Row | null },
  resolve: RuleResolver, warn?: Warn): void {
  const refused = writeGuardRefusal(def.writeGuards, { operation, ...rows, now: new Date().toISOString(), roles: request.auth?.identification }, resolve, warn);
  if (!refused) return;
  const text = refused.message[request.lang] ?? refused.message['zh-CN'];
  throw new AppError(422, 'resource.write_refused', { text }, refused.field ? { [refused.field]: [{ key: 'validation.custom', params: { text } }] } : undefined);
}
