import type { Grants } from '../core/actions';
import { useSession } from '../store/session';

/** The signed-in user's role codes and permission codes (spec §3, §6). */
export function useGrants(): Grants | null {
  const user = useSession((s) => s.user);
  return user ? { identification: user.identification ?? [], roleNames: (user.roles ?? []).flatMap((r) => (r.en_name ? [r.name, r.en_name] : [r.name])), permission: user.permission ?? [], userId: user.id } : null;
}
