import http from 'node:http';

/** The loopback HTTP both sides use: a request that collects its answer, a server listening on a free port. */

export function request(options: http.RequestOptions & { port: number }, body: Buffer[]): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', ...options }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString(), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const part of body) req.write(part);
    req.end();
  });
}

export function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}
