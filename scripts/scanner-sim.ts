/**
 * A scanner simulator (issue 16): behaves as a real scanner towards a running DSMS server. It heartbeats (init,
 * idle; working while it scans), "scans" each glass slide by writing a demo slide whose label carries the barcode
 * (the demo slide generator), uploads it through the chunked protocol with its own key, and hands it in: the server
 * binds it to its case and glass slide by the barcode, or leaves it in the "not bound" queue.
 *
 *   node --import tsx scripts/scanner-sim.ts [--url http://localhost:8001] [--user scanner --password dsms-demo]
 *     [--name SIM-1] [--key dsk_…] [--cases P2026-00001,P2026-00002] [--barcodes A,B] [--unlabelled 1]
 *     [--width 4096 --height 3072] [--heartbeat 5]
 *
 * Without --key it signs in (a user with scanner_operate), registers the scanner `--name` when missing and issues it
 * a key. `--cases` scans every glass slide of those cases not scanned yet; `--unlabelled N` adds N slides whose
 * label matches nothing.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { generateDemoSlide } from '../server/modules/slides/demo-slide/generate.js';
import { login, ScannerClient, UserClient } from './scanner-sim/client.js';

export interface SimOptions {
  url: string;
  key?: string;
  user?: string;
  password?: string;
  name?: string;
  cases?: string[];
  barcodes?: string[];
  unlabelled?: number;
  width?: number;
  height?: number;
  heartbeatSeconds?: number;
  log?: (line: string) => void;
}

export interface SimResult { barcode: string; scan_id: number; slide_id: number; bind_status: string; case_id: number | null }

/** Runs the simulated scanner's work once; answers what each scan became. Heartbeats stop when it returns. */
export async function runScannerSim(o: SimOptions): Promise<SimResult[]> {
  const log = o.log ?? ((line: string) => console.log(line));
  const base = o.url.replace(/\/$/, '');
  const user = o.user ? new UserClient(base, await login(base, o.user, o.password ?? 'dsms-demo')) : null;
  let key = o.key;
  if (!key) {
    if (!user) throw new Error('give --key, or --user/--password of a scanner operator to register the scanner');
    const made = await user.scannerWithKey(o.name ?? 'SIM-1');
    key = made.key;
    log(`scanner ${o.name ?? 'SIM-1'} (#${made.id}) has a new key ${made.key.slice(0, 10)}…`);
  }
  const scanner = new ScannerClient(base, key);
  const barcodes = [...(o.barcodes ?? [])];
  for (const c of o.cases ?? []) {
    if (!user) throw new Error('--cases needs --user to look the glass slides up');
    barcodes.push(...(await user.unscannedBarcodes(c)));
  }
  for (let i = 0; i < (o.unlabelled ?? 0); i++) barcodes.push(`SIM-UNLABELLED-${Date.now().toString(36)}-${i}`);

  let state = 'init';
  await scanner.heartbeat(state);
  const beat = setInterval(() => { void scanner.heartbeat(state).catch((e: unknown) => log(`heartbeat failed: ${String(e)}`)); }, (o.heartbeatSeconds ?? 5) * 1000);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-scanner-sim-'));
  const results: SimResult[] = [];
  try {
    state = 'idle';
    await scanner.heartbeat(state);
    for (const [i, barcode] of barcodes.entries()) {
      state = 'working';
      await scanner.heartbeat(state, barcode);
      const scan = await scanner.startScan(barcode, 1, 40);
      const file = path.join(work, `${barcode}.tiff`);
      await generateDemoSlide({ out: file, width: o.width ?? 4096, height: o.height ?? 3072, seed: 100 + i, slideId: barcode, label: true });
      const uploaded = await scanner.upload(file, `${barcode}.tiff`);
      const done = await scanner.finishScan(scan.id, { result: 'scanned', path: uploaded, name: barcode });
      await fs.rm(file, { force: true });
      results.push({ barcode, scan_id: scan.id, slide_id: done.slide_id, bind_status: done.bind_status, case_id: done.case_id });
      log(`${barcode}: slide #${done.slide_id} ${done.bind_status}${done.case_id ? ` to case #${done.case_id}` : ''}`);
      state = 'idle';
      await scanner.heartbeat(state);
    }
  } finally {
    clearInterval(beat);
    await fs.rm(work, { recursive: true, force: true });
  }
  return results;
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://localhost:8001' },
      key: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string', default: 'SIM-1' },
      cases: { type: 'string' },
      barcodes: { type: 'string' },
      unlabelled: { type: 'string', default: '0' },
      width: { type: 'string', default: '4096' },
      height: { type: 'string', default: '3072' },
      heartbeat: { type: 'string', default: '5' },
    },
  });
  const list = (v?: string) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);
  const opts: SimOptions = {
    url: values.url!, key: values.key, user: values.user ?? (values.key ? undefined : 'scanner'), password: values.password, name: values.name,
    cases: list(values.cases), barcodes: list(values.barcodes), unlabelled: Number(values.unlabelled), width: Number(values.width), height: Number(values.height),
    heartbeatSeconds: Number(values.heartbeat),
  };
  const results = await runScannerSim(opts);
  console.log(`${results.length} scans, ${results.filter((r) => r.bind_status === 'bound').length} bound`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
