import { jsonServer, onLoopback } from './loopback.js';

/**
 * The loopback stand-in for a DingTalk-style vendor (tests only): its sign-in page answers an auth code for
 * `state.signInAs`; its token endpoint trades `good-code-<mobile>` for
 * an access token, and its "me" endpoint answers the user with that mobile number. Anything else is refused, as the
 * vendor refuses a spent or forged code.
 */
export async function startMessagingDouble() {
  /** Who signs in at the vendor's sign-in page (its mobile), as the person at the browser would. */
  const state = { signInAs: '13800000000' };
  const { url, close } = await onLoopback(jsonServer((req, body, send, res) => {
    // The vendor's sign-in page (login.dingtalk.com/oauth2/auth): straight back to the app with an auth code and the state.
    if (req.method === 'GET' && req.url?.startsWith('/oauth2/auth?')) {
      const asked = new URL(req.url, 'http://double.invalid').searchParams;
      if (asked.get('client_id') !== 'app-key' || asked.get('response_type') !== 'code') { res.writeHead(400); return res.end(); }
      const back = new URL(asked.get('redirect_uri')!);
      back.searchParams.set('authCode', `good-code-${state.signInAs}`);
      back.searchParams.set('state', asked.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (req.method === 'POST' && req.url === '/v1.0/oauth2/userAccessToken') {
      const sent = JSON.parse(body || '{}');
      const mobile = /^good-code-(\d+)$/.exec(sent.code ?? '')?.[1];
      if (sent.clientId !== 'app-key' || sent.clientSecret !== 'app-secret' || sent.grantType !== 'authorization_code' || !mobile) return send(400, { code: 'invalid' });
      return send(200, { accessToken: `at-${mobile}`, expireIn: 7200 });
    }
    if (req.method === 'GET' && req.url === '/v1.0/contact/users/me') {
      const mobile = /^at-(\d+)$/.exec(String(req.headers['x-acs-dingtalk-access-token'] ?? ''))?.[1];
      return mobile ? send(200, { nick: 'Someone', mobile }) : send(401, { code: 'invalid' });
    }
    send(404, {});
  }));
  return { url, state, close };
}
