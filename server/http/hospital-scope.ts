import type { FastifyRequest } from 'fastify';

/** The header the browser sends while the header's show-all-data switch is on (session-only, spec §6). */
export const SHOW_ALL_DATA_HEADER = 'x-show-all-data';

/**
 * Spec §6: hospital-scoped queries use the chosen hospital, or every hospital of the user when
 * show-all-data is on. Undefined: the resource (anything with a `scope`) is not hospital-scoped.
 */
export function hospitalScope(resource: { scope?: string }, request: FastifyRequest): number[] | undefined {
  if (resource.scope !== 'hospital') return undefined;
  const user = request.auth!;
  const chosen = user.hospitalId ?? user.hospitalIds[0] ?? 0;
  if (request.headers[SHOW_ALL_DATA_HEADER] === '1' && user.hospitalIds.length) return [...new Set([chosen, ...user.hospitalIds])];
  return [chosen];
}

/** The hospital a new row of a scoped resource belongs to: the one the user is working in. */
export const workingHospital = (request: FastifyRequest): number => request.auth!.hospitalId ?? request.auth!.hospitalIds[0] ?? 0;
