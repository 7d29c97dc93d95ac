import type { Grants } from '../core/actions';
import { useSession } from '../store/session';

/** The signed-in user's role codes and permission codes (spec §3, §6). */
export function useGrants(): Grants | null {
  const user = useSession((s) => s.user);
  const hospital = useSession((s) => s.hospitalId);
  return user ? {
    identification: user.identification ?? [], roleNames: (user.roles ?? []).flatMap((r) => (r.en_name ? [r.name, r.en_name] : [r.name])),
    permission: user.permission ?? [], userId: user.id, ...(hospital ? { hospital } : {}),
  } : null;
}
