import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The loopback stand-in for a DingTalk-style vendor (tests only): its token endpoint trades `good-code-<mobile>` for
 * an access token, and its "me" endpoint answers the user with that mobile number. Anything else is refused, as the
 * vendor refuses a spent or forged code.
 */
export async function startMessagingDouble() {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const send = (status: number, value: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)); };
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
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}
