import { createHash, constants, publicEncrypt } from 'node:crypto';
import fs from 'node:fs/promises';
import { UPLOAD_CHUNK_BYTES } from '../../src/core/constants.js';

/** What the simulator says to a DSMS server over HTTP, as a real scanner's agent would. */

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

async function json(res: Response): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the envelope's data is route-specific
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${body?.message ?? ''}`);
  return body.data;
}

/** A user session (to register the simulated scanner and look up glass slides): the browser's sealed login. */
export async function login(base: string, username: string, password: string): Promise<string> {
  const { key_id, public_key, nonce } = await json(await fetch(`${base}/api/auth/challenge`));
  const sealed = publicEncrypt({ key: public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${nonce}:${password}`));
  const data = await json(await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, key_id, password: sealed.toString('base64') }),
  }));
  return data.access_token as string;
}

export class UserClient {
  constructor(private readonly base: string, private readonly token: string) {}

  private req(method: string, url: string, body?: object) {
    return fetch(`${this.base}${url}`, {
      method, headers: { authorization: `Bearer ${this.token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
    }).then(json);
  }

  /** The scanner called `name` in the user's hospital (made when missing), with a freshly issued key. */
  async scannerWithKey(name: string): Promise<{ id: number; key: string }> {
    const found = await this.req('GET', `/api/scanner/lists?page=1&page_size=100`);
    const rows = (found?.data ?? found?.list ?? []) as { id: number; name: string }[];
    const id = rows.find((r) => r.name === name)?.id
      ?? (await this.req('POST', '/api/scanner/store', { name, model: 'DSMS scanner simulator', area: 'Simulated', location: 'scripts/scanner-sim.ts' })).id;
    const { key } = await this.req('POST', `/api/scanner/key/${id}`);
    return { id, key };
  }

  /** The label barcodes of a case's glass slides not scanned yet (what their labels print: cases/labels.ts). */
  async unscannedBarcodes(pathologyNumber: string): Promise<string[]> {
    const { id } = await this.req('GET', `/api/pathology/get_id_by_number/${encodeURIComponent(pathologyNumber)}`);
    const sections = (await this.req('GET', `/api/data/kfb/sections/${id}`)) as { label: string | null; block_number: string; section_number: number; slide_id: number | null }[];
    return sections.filter((s) => s.slide_id === null).map((s) => s.label ?? `${pathologyNumber}-${s.block_number}-${s.section_number}`);
  }
}

/** The scanner's own calls, with its key in X-Scanner-Key. */
export class ScannerClient {
  constructor(private readonly base: string, private readonly key: string) {}

  private post(url: string, body?: object) {
    return fetch(`${this.base}${url}`, {
      method: 'POST', headers: { 'x-scanner-key': this.key, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}),
    }).then(json);
  }

  heartbeat(status: string, message?: string) { return this.post('/api/scanner-agent/heartbeat', { status, message }); }
  startScan(barcode: string, scanLevel: number, scale: number): Promise<{ id: number }> { return this.post('/api/scanner-agent/scans', { barcode, scan_level: scanLevel, scale }); }
  finishScan(id: number, body: { result: string; path?: string; name?: string; message?: string }) { return this.post(`/api/scanner-agent/scans/${id}/finish`, body); }

  /** The chunked protocol (2 MiB chunks, each with its MD5 and the file's): answers the completed upload's path. */
  async upload(file: string, name: string): Promise<string> {
    const data = await fs.readFile(file);
    const total = Math.max(1, Math.ceil(data.length / UPLOAD_CHUNK_BYTES));
    const totalMd5 = md5(data.subarray(0, 1024 ** 3));
    let answer: { code?: number; path?: string } = {};
    for (let num = 1; num <= total; num++) {
      const bytes = data.subarray((num - 1) * UPLOAD_CHUNK_BYTES, num * UPLOAD_CHUNK_BYTES);
      const form = new FormData();
      for (const [k, v] of Object.entries({ file_name: name, num, total_num: total, md5: md5(bytes), total_md5: totalMd5 })) form.append(k, String(v));
      form.append('blob', new Blob([bytes]), name);
      answer = await json(await fetch(`${this.base}/api/scanner-agent/upload`, { method: 'POST', headers: { 'x-scanner-key': this.key }, body: form }));
    }
    if (answer.code !== 1 || !answer.path) throw new Error(`upload of ${name} did not complete: ${JSON.stringify(answer)}`);
    return answer.path;
  }
}
