import { createHash } from 'node:crypto';
import http from 'node:http';
import fs from 'node:fs/promises';
import { CHUNK, eachChunk, IN_FLIGHT } from './source.js';
import { request } from './http.js';

/** The four ways the benchmark moves the source: our upload route, tus, plain PUTs, and a raw disk write. */

/** Chunks of ours answered 5xx and sent again (printed with the table: each one is a failure to look into). */
export let retriedChunks = 0;

/**
 * Sends every chunk and answers the stored path the server gave for the finished file. Each upload has a name of its
 * own, so it is a new upload (its id includes the name), as a user's next file would be.
 */
export async function uploadOurs(source: string, size: number, hashes: { chunks: string[]; total: string }, port: number, token: string, inFlight = IN_FLIGHT, fileName = 'bench.kfb'): Promise<string> {
  const totalNum = Math.max(1, Math.ceil(size / CHUNK));
  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
  const boundary = '----dsmsbench' + Date.now().toString(16);
  const fields = (num: number, md5: string) => ({
    file_name: fileName, num: String(num), total_num: String(totalNum), md5, total_md5: hashes.total, total_size: String(size),
  });
  let done: { code: number; path?: string } | undefined;
  await eachChunk(source, size, async (num, bytes) => {
    // As the browser does: the chunk's MD5 is computed by the client, here as the chunk is read.
    const md5 = createHash('md5').update(bytes).digest('hex');
    const head = Buffer.from(
      Object.entries(fields(num, md5)).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')
      + `--${boundary}\r\nContent-Disposition: form-data; name="blob"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const send = () => request({
      port, agent, method: 'POST', path: '/api/upload/large',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + bytes.length + tail.length },
    }, [head, bytes, tail]);
    // As the browser's uploader does (src/core/uploadPlan.ts retryDecision): a 5xx is retried, up to 5 times.
    let res = await send();
    for (let failures = 1; res.status >= 500 && failures <= 5; failures++) {
      retriedChunks++;
      console.log(`chunk ${num}: ${res.status} ${res.body.slice(0, 200)}, retried`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(8000, 500 * 2 ** (failures - 1))));
      res = await send();
    }
    if (res.status !== 200) throw new Error(`chunk ${num}: ${res.status} ${res.body}`);
    const data = JSON.parse(res.body).data as { code: number; path?: string };
    if (data.code === 1) done = data;
  }, inFlight);
  agent.destroy();
  if (!done?.path) throw new Error('the upload never completed');
  return done.path;
}

export async function uploadTus(source: string, size: number, port: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const created = await request({ port, agent, method: 'POST', path: '/files', headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'content-length': 0 } }, []);
  if (created.status !== 201) throw new Error(`tus create: ${created.status} ${created.body}`);
  const location = new URL(created.headers.location!, `http://127.0.0.1:${port}`).pathname;
  await eachChunk(source, size, async (_num, bytes, offset) => {
    const res = await request({
      port, agent, method: 'PATCH', path: location,
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': bytes.length },
    }, [bytes]);
    if (res.status !== 204) throw new Error(`tus patch: ${res.status} ${res.body}`);
  }, 1);
  agent.destroy();
}

export async function uploadPlain(source: string, size: number, port: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  await eachChunk(source, size, async (num, bytes) => {
    const res = await request({ port, agent, method: 'PUT', path: `/put/${num}`, headers: { 'content-length': bytes.length } }, [bytes]);
    if (res.status !== 204) throw new Error(`put ${num}: ${res.status}`);
  });
  agent.destroy();
}

export async function rawWrite(source: string, target: string, size: number): Promise<void> {
  const out = await fs.open(target, 'w');
  try {
    await eachChunk(source, size, async (_num, bytes, offset) => {
      await out.write(bytes, 0, bytes.length, offset);
    }, 1);
  } finally {
    await out.close();
  }
}
