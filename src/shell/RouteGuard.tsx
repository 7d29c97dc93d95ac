import { useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api, displayText, unwrap } from '../api/client';
import { notifyError } from '../api/notify';
import { decideRoute } from '../core/routeGuard';
import { useSession } from '../store/session';
import { loadSession } from './loadSession';
import { Splash } from './Splash';

const EXTERNAL_LOGIN = {
  code: (value: string) => api.post('/auth/ulogin', { code: value }, { silent: true }),
  stoken: (value: string) => api.post('/auth/sso_login_v2', { sso_token: value }, { silent: true }),
  sso: () => api.post('/auth/sso_login', {}, { silent: true, withCredentials: true }),
};

/** Carries out the decisions of `decideRoute` (spec §4) for every route. */
export function RouteGuard() {
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const { token, user, locked, lockedPath, clear, setToken } = useSession();
  const [busy, setBusy] = useState(false);
  // The outside sign-in last tried: a code is single-use, and until the navigation below lands the old address (still
  // carrying it) would send it again, once per render.
  const tried = useRef<string | null>(null);
  const query = Object.fromEntries(new URLSearchParams(location.search));
  const decision = decideRoute({
    path: location.pathname, query, hasToken: !!token, userLoaded: !!user, locked, lockedPath: lockedPath ?? undefined,
    hasSsoCookie: document.cookie.split('; ').some((c) => c.startsWith('DD_TOKEN=')),
  });
  const redirectToLogin = `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`;

  useEffect(() => {
    if (busy) return;
    if (decision.action === 'loadUser') {
      setBusy(true);
      void loadSession().then((ok) => {
        setBusy(false);
        if (!ok) {
          clear();
          navigate(redirectToLogin, { replace: true });
        }
      });
    } else if (decision.action === 'externalLogin') {
      const { kind, value, redirect } = decision;
      if (tried.current === `${kind}:${value}`) return;
      tried.current = `${kind}:${value}`;
      setBusy(true);
      void unwrap<{ access_token: string; user_id?: number }>(EXTERNAL_LOGIN[kind](value))
        .then((res) => {
          if (kind === 'stoken') sessionStorage.clear();
          setToken(res.access_token, res.user_id);
          navigate(redirect, { replace: true });
        })
        .catch((e) => {
          if (kind === 'sso') document.cookie = 'DD_TOKEN=; Max-Age=0; path=/';
          notifyError(displayText(e, t('login.externalFailed')));
          navigate(`/login?redirect=${encodeURIComponent(redirect)}`, { replace: true });
        })
        .finally(() => setBusy(false));
    }
  }, [decision.action, busy]); // eslint-disable-line react-hooks/exhaustive-deps -- once per decision; navigate, t and the redirect follow from it

  switch (decision.action) {
    case 'allow':
      return <Outlet />;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'refuse':
      return <Navigate to={decision.stayAt} replace />;
    default:
      return <Splash />;
  }
}
