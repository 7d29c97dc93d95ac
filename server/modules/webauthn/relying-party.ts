import { isIpHost } from '../../../src/core/securityKeys.js';
import { AppError } from '../../http/errors.js';

/** Who the keys are for: the relying party id (a host name) and the one origin whose pages may use them. */
export interface RelyingParty { id: string; origin: string; name: string }

/**
 * PUBLIC_URL decides when set (as for every absolute address the app makes); without it (tests, a bare
 * buildApp) the request's own Host does. Browsers refuse an IP address as an RP id, so such an address
 * answers a clear 409 naming PUBLIC_URL instead of a key prompt that can only fail.
 */
export function relyingParty(publicUrl: string | undefined, request: { protocol: string; host: string; hostname: string }): RelyingParty {
  const origin = publicUrl ? new URL(publicUrl).origin : `${request.protocol}://${request.host}`;
  const id = new URL(origin).hostname;
  if (isIpHost(id)) throw new AppError(409, 'webauthn.rp_is_ip');
  return { id, origin, name: 'DSMS' };
}
