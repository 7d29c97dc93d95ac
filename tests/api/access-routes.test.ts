import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromStored, thumbPath } from '../../server/modules/slides/paths.js';
import { seriesUids } from '../../server/modules/slides/dicom/uids.js';
import type { RouteEntry } from '../../server/http/route-table.js';
import { call, databases, ingested, startApp, tokenFor, type Harness } from './harness.js';
import { md5, sendChunk } from './upload-helpers.js';

/**
 * Issue 27: every route of the app's route table, called as (a) the administrator of another hospital and (b) a
 * user of the fixture's hospital who holds every permission but is limited to another subspecialty directory,
 * gives nothing of a hospital-1, directory-1 case and its slide: no ids, case number, patient name, slide or file
 * name, report, annotation or image text; no tiles, thumbnails or files; and no count that includes them (each
 * list and count answers the same with the fixture moved to a hospital nobody holds).
 * Path parameters are filled with the fixture's ids; write routes get harmless bodies and must change nothing.
 */

/** Ids far above anything the seed or the test makes, so one in an answer can only be the fixture's. */
const FX = { case: 7301001, slide: 7302001, report: 7303001, annotation: 7304001, image: 7305001, qc: 7306001, log: 7307001, charge: 7308001, collection: 7309001, message: 7310001 };
const MARK = {
  number: 'SCOPEFX-0001', patient: 'Scopefixture Patient', slide: 'scopefx-slide', file: 'scopefx-file', report: 'scopefx-diagnosis',
  annotation: 'scopefx-annotation', image: 'scopefx-image', message: 'scopefx-message',
};
const IDS = Object.values(FX);

/**
 * Routes not walked, and why. Their own tests hold them: the link or code is the grant, or the call would end the
 * caller's session (logout, lock, password, hospital switch) for the rest of the walk.
 */
const SKIPPED: [prefix: string, why: string][] = [
  ['/api/share/view', 'a share link: its token is the grant (shares.test.ts)'],
  ['/api/tiles/share/', 'a share link’s tiles: its token is the grant (shares.test.ts)'],
  ['/api/reports/verify/', 'the report verification page: its code is the grant (diagnosis-output.test.ts)'],
  ['/api/auth/', 'sign-in, sign-out, screen lock and hospital switch change the caller’s own session'],
  ['/api/sso/', 'single sign-on flows change the caller’s own session'],
  ['/api/qr-login', 'QR sign-in changes the caller’s own session'],
  ['/api/webauthn', 'passkey sign-in and enrolment change the caller’s own session'],
  ['/api/account', 'the caller’s own account (a new password ends their sessions)'],
  ['/api/scanner-agent/', 'the scanners’ API: a scanner key, not a user (scanners.test.ts)'],
  ['/api/realtime', 'the realtime socket'],
];

/**
 * Reads that are a hospital's as a whole, not a directory's: the directory-limited caller (of the fixture's own
 * hospital) is not held to them. The operation log is narrowed by hospital only (it has no case or directory of its
 * own): the fixture's upload and bind are logged in hospital 1, with the file's name, when the slide was of no case
 * yet. The other hospital's administrator is still held to it here, and operation-log-scope.test.ts holds the rest.
 */
const HOSPITAL_WIDE = ['/api/logs/operate/'];

/** The ids a write route's path is filled with: the rows a write could change. */
const WRITE_IDS = [FX.case, FX.slide, FX.report, FX.annotation, FX.image, FX.qc, FX.message];

/** The fixture slide's DICOMweb UIDs, made from each database's UID namespace once the fixture is in it. */
const dicom = { study: '', series: '', instance: '' };

/** What a parameter is filled with: the fixture's ids for ids, and the shapes the image routes want. */
function candidates(name: string, ids: readonly number[]): string[] {
  switch (name) {
    case 'descriptor': return [`${FX.slide}.dzi`];
    case 'files': return [`${FX.slide}_files`];
    case 'level': return ['0'];
    case 'tile': return ['0_0.jpeg'];
    case 'slideKey': return [String(FX.slide)];
    case 'name': return ['thumbnail'];
    case 'region': return ['full'];
    case 'size': return ['max'];
    case 'rotation': return ['0'];
    case 'qualityFormat': return ['default.jpg'];
    case 'number': return [MARK.number];
    case 'section': return ['1'];
    case 'alias': return ['cases'];
    case 'kind': return ['workload'];
    case 'action': return ['save'];
    // DICOMweb: the fixture's own UIDs (its study, series, full-resolution level) and its first frame.
    case 'study': return [dicom.study];
    case 'series': return [dicom.series];
    case 'instance': return [dicom.instance];
    case 'frames': return ['1'];
    default: return ids.map(String);
  }
}

/** Every URL of a route with its parameters filled (their product), and the values put in. */
function fills(url: string, ids: readonly number[] = IDS): { url: string; supplied: string[] }[] {
  let out = [{ url, supplied: [] as string[] }];
  for (const [, name] of url.matchAll(/:([A-Za-z_]+)/g)) {
    out = out.flatMap((o) => candidates(name, ids).map((v) => ({ url: o.url.replace(`:${name}`, encodeURIComponent(v)), supplied: [...o.supplied, v] })));
  }
  return out;
}

/** Query strings some lists need to answer at all: the caller's own hospital and all time. */
const QUERIES: Record<string, (hospital: number) => string> = {
  '/api/statistic/:kind': (h) => `from=2000-01-01&to=2100-01-01&hospital_id=${h}`,
  '/api/statistic/dashboard': (h) => `hospital_id=${h}`,
};

/** What of the fixture an answer tells, once the caller's own input (echoed in an error, say) is taken out. */
function leaks(res: LightMyRequestResponse, supplied: string[]): string[] {
  let text = res.body;
  for (const s of supplied) text = text.split(s).join('').split(encodeURIComponent(s)).join('');
  const found = Object.values(MARK).filter((m) => text.toLowerCase().includes(m.toLowerCase()));
  found.push(...IDS.filter((id) => new RegExp(`(?<![\\d.])${id}(?![\\d])`).test(text)).map(String));
  return found;
}

/** A JSON or text answer, whose text leaks() reads (DICOMweb's searches and metadata are DICOM JSON). */
const isData = (res: LightMyRequestResponse) => /^(application\/(dicom\+)?json|text\/plain)/.test(String(res.headers['content-type'] ?? 'application/json'));

describe.each(databases)('row-level access on every route [%s]', (kind) => {
  let h: Harness;
  let dataDir: string;
  // Fixture rows written column by column, as the database has them.
  let raw: Kysely<any>;
  let general: number;
  let branch: number;
  let nowhere: number;
  let owner: string;
  /** `directory`: the caller is limited to a directory of the fixture's own hospital. */
  const hostile: { who: string; token: string; hospital: number; directory: boolean }[] = [];
  let routes: RouteEntry[];

  const skipped = (url: string) => SKIPPED.some(([prefix]) => url.startsWith(prefix));

  /** The fixture's rows as the database holds them: compared before and after the write routes. */
  const snapshot = async () => Promise.all([
    raw.selectFrom('cases').selectAll().where('id', '=', FX.case).execute(),
    raw.selectFrom('slides').selectAll().where('id', '=', FX.slide).execute(),
    raw.selectFrom('reports').selectAll().where('case_id', '=', FX.case).execute(),
    raw.selectFrom('slide_annotations').selectAll().where('slide_id', '=', FX.slide).execute(),
    raw.selectFrom('case_images').selectAll().where('case_id', '=', FX.case).execute(),
    raw.selectFrom('slide_qc').selectAll().where('slide_id', '=', FX.slide).execute(),
    raw.selectFrom('collections').selectAll().where('slide_id', '=', FX.slide).execute(),
    raw.selectFrom('case_charges').selectAll().where('case_id', '=', FX.case).execute(),
  ]);

  /** Moves the fixture to `hospital` (its rows with a hospital of their own; the rest follow the slide). */
  const moveFixture = async (hospital: number) => {
    for (const [table, key, id] of [
      ['cases', 'id', FX.case], ['slides', 'id', FX.slide], ['reports', 'case_id', FX.case], ['slide_annotations', 'slide_id', FX.slide],
      ['case_images', 'case_id', FX.case], ['slide_qc', 'slide_id', FX.slide], ['case_charges', 'case_id', FX.case],
    ] as const) await raw.updateTable(table).set({ hospital_id: hospital }).where(key, '=', id).execute();
  };

  const request = (token: string, method: string, url: string, payload?: object) =>
    call(h.app, method as 'GET', url, { token, lang: 'en-US', headers: { 'x-show-all-data': '1' }, payload });

  /** The read routes: GETs, and POSTs that only read (list filters), called with an empty filter. */
  const reads = () => routes.filter((r) => !skipped(r.url) && (r.method === 'GET' || (r.method === 'POST' && r.audit === false)));

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-access-routes-'));
    h = await startApp(kind, { config: { dataDir } });
    raw = h.db as unknown as Kysely<any>;
    routes = h.app.routeTable.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
    const hospital = async (code: string) => (await raw.selectFrom('hospitals').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id as number;
    [general, branch] = [await hospital('H001'), await hospital('H002')];
    const now = new Date().toISOString();
    nowhere = (await raw.insertInto('hospitals').values({ code: 'HSCOPE', name: '无人医院', en_name: 'Nobody’s hospital', logo: null, created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    const dir = async (code: string) => (await raw.selectFrom('subspecialties').select('id').where('hospital_id', '=', general).where('code', '=', code).executeTakeFirstOrThrow()).id as number;
    const [breast, gi] = [await dir('breast'), await dir('gi')];

    // The case: a copy of a demo case of hospital 1, filed under Breast, under ids and names of its own.
    const model = await raw.selectFrom('cases').selectAll().where('hospital_id', '=', general).where('pathology_number', '=', 'P2026-00002').executeTakeFirstOrThrow();
    await raw.insertInto('cases').values({ ...model, id: FX.case, pathology_number: MARK.number, patient_name: MARK.patient, subspecialty_id: breast, apply_id: null }).execute();

    // The slide: a real picture through upload and bind (so it has tiles and a thumbnail), then put under the
    // fixture's id and case; the row it was bound as goes.
    const technician = await tokenFor(h.app, 'technician');
    const picture = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 80, b: 120 } } }).png().toBuffer();
    const sent = await sendChunk(h.app, { name: `${MARK.file}.png`, data: picture, totalNum: 1, totalMd5: md5(picture) }, 1, { token: technician });
    expect(sent.statusCode, sent.body).toBe(200);
    const bound = await call(h.app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: sent.json().data.path } });
    expect(bound.statusCode, bound.body).toBe(200);
    const made = await ingested(h.app, technician, bound.json().data.id);
    expect(made.status, JSON.stringify(made)).toBe('ready');
    const slideRow = await raw.selectFrom('slides').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    // Gone first: a file belongs to one slide row (the unique file_path).
    for (const table of ['jobs', 'section_logs', 'slide_qc', 'slide_focus']) await raw.deleteFrom(table).where('slide_id', '=', made.id).execute();
    await raw.deleteFrom('slides').where('id', '=', made.id).execute();
    await raw.insertInto('slides').values({ ...slideRow, id: FX.slide, name: MARK.slide, case_id: FX.case }).execute();
    fs.copyFileSync(thumbPath(dataDir, made.id), thumbPath(dataDir, FX.slide));
    const namespace = JSON.parse((await raw.selectFrom('settings').select('value').where('key', '=', 'dicom_uid_namespace').executeTakeFirstOrThrow()).value) as string;
    const uids = seriesUids(namespace, { id: FX.slide, case_id: FX.case, file_path: slideRow.file_path });
    Object.assign(dicom, { study: uids.study, series: uids.series, instance: uids.instance(1) });

    // What hangs off them.
    await raw.insertInto('reports').values({
      id: FX.report, hospital_id: general, case_id: FX.case, report_type: 1, supplement_type: null, sub_phase: 'to_audit', is_draft: 0, release_status: 'no',
      gross_description: MARK.report, microscopic: MARK.report, diagnosis: MARK.report, advice: null, postscript: null, images: null, first_doctor: null, first_at: null,
      audit_doctor: null, audit_at: null, sign_doctor: null, sign_at: null, return_reason: null, issue_at: null, print_at: null, deliver_at: null, delay_reason: null,
      delay_at: null, delay_doctor: null, delay_status: null, follow_up: null, verify_code: null, verify_hash: null, created_by: null, created_at: now, updated_at: now,
    }).execute();
    await raw.insertInto('slide_annotations').values({
      id: FX.annotation, slide_id: FX.slide, hospital_id: general, user_id: 1, username: 'admin', type: 'rect', points: '[[0,0],[10,10]]', name: MARK.annotation,
      description: MARK.annotation, color: '#ff0000', classification: '', length_um: null, area_um2: null, perimeter_um: null, created_at: now, updated_at: now,
    }).execute();
    // Where POST /api/upload/image keeps an attachment (only such keys are served as case images).
    const imagePath = `uploads/attachments/scopefx/${MARK.image}.png`;
    fs.mkdirSync(path.dirname(fromStored(dataDir, imagePath)), { recursive: true });
    fs.writeFileSync(fromStored(dataDir, imagePath), picture);
    await raw.insertInto('case_images').values({ id: FX.image, case_id: FX.case, hospital_id: general, path: imagePath, slide_id: FX.slide, title: MARK.image, created_by: 1, created_at: now }).execute();
    await raw.insertInto('slide_qc').values({
      id: FX.qc, hospital_id: general, slide_id: FX.slide, blur_share: null, focus_status: 'done', grade: 'qualified', reasons: null, suggested_reasons: null,
      judge: null, remark: MARK.slide, qc_by: null, qc_at: now, version: 1, created_at: now, updated_at: now,
    }).execute();
    await raw.insertInto('section_logs').values({ id: FX.log, slide_id: FX.slide, slide_name: MARK.slide, case_id: FX.case, user_id: null, username: 'someone', action: 'view', detail: null, created_at: now }).execute();
    await raw.insertInto('case_charges').values({
      id: FX.charge, hospital_id: general, case_id: FX.case, order_id: null, charge_key: 'scopefx', item: 'Scopefx', kind: 'case', quantity: 1, unit_price_cents: 7, amount_cents: 7, charged_by: null, charged_at: now,
    }).execute();

    // The two callers: an administrator of hospital 2 only, and a hospital-1 user of every permission limited to GI.
    const model_user = await raw.selectFrom('users').selectAll().where('name', '=', 'technician').executeTakeFirstOrThrow();
    const role = async (identification: string) => (await raw.selectFrom('roles').select('id').where('identification', '=', identification).executeTakeFirstOrThrow()).id as number;
    const everything = (await raw.selectFrom('permissions').select('code').execute()).map((p) => p.code as string);
    await raw.insertInto('roles').values({ name: '全权限', en_name: 'Every permission', identification: 'scope_everything', description: null, extra: JSON.stringify(everything), created_at: now }).execute();
    const people = [
      { who: 'scopeother', hospital: branch, role: await role('admin'), directory: undefined },
      { who: 'scopedir', hospital: general, role: await role('scope_everything'), directory: gi },
    ];
    for (const p of people) {
      const { id: _drop, ...copy } = model_user;
      const { id } = await raw.insertInto('users').values({ ...copy, name: p.who, realname: p.who, email: `${p.who}@demo.dsms` }).returning('id').executeTakeFirstOrThrow();
      await raw.insertInto('user_roles').values({ user_id: id, role_id: p.role }).execute();
      await raw.insertInto('user_hospitals').values({ user_id: id, hospital_id: p.hospital }).execute();
      if (p.directory) await raw.insertInto('user_subspecialties').values({ user_id: id, subspecialty_id: p.directory }).execute();
      // Once in their own collection (collected before a move, say) and, for the directory user, a message about the case.
      await raw.insertInto('collections').values({ id: FX.collection + id, user_id: id, category_id: null, slide_id: FX.slide, remark: null, created_at: now }).execute();
      if (p.directory) {
        await raw.insertInto('messages').values({
          id: FX.message, batch: 'scopefx', hospital_id: general, user_id: id, from_user_id: null, kind: 'message', level: 1, type: 'system', title: MARK.message,
          content: MARK.message, message_key: null, params: null, link: null, case_id: FX.case, read_at: null, created_at: now,
        }).execute();
      }
      hostile.push({ who: p.who, token: await tokenFor(h.app, p.who), hospital: p.hospital, directory: p.directory !== undefined });
    }
    owner = await tokenFor(h.app, 'admin');
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the fixture is there for its own hospital: case, slide, thumbnail, tiles, report, annotation, image', async () => {
    expect(routes.length).toBeGreaterThan(150);
    const seen = async (url: string) => {
      const res = await request(owner, 'GET', url);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
      return res;
    };
    expect((await seen(`/api/data/kfb/item/${FX.slide}`)).body).toContain(MARK.slide);
    expect((await seen(`/api/pathology/item/${FX.case}`)).body).toContain(MARK.number);
    expect((await seen(`/api/data/kfb/thumb/${FX.slide}`)).headers['content-type']).toMatch(/^image\//);
    expect((await seen(`/api/tiles/${FX.slide}.dzi`)).body).toContain('<Image');
    expect((await seen(`/api/tiles/${FX.slide}_files/0/0_0.jpeg`)).headers['content-type']).toMatch(/^image\//);
    expect((await seen(`/api/slide/annotations/${FX.slide}`)).body).toContain(MARK.annotation);
    expect((await seen(`/api/cases/images/${FX.image}/file`)).headers['content-type']).toMatch(/^image\//);
  });

  it('no read route tells another hospital or another directory anything of it', async () => {
    const found: string[] = [];
    for (const caller of hostile) {
      for (const route of reads()) {
        const query = QUERIES[route.url]?.(caller.hospital);
        for (const fill of fills(route.url)) {
          const url = query ? `${fill.url}?${query}` : fill.url;
          const res = await request(caller.token, route.method, url, route.method === 'POST' ? {} : undefined);
          const told = caller.directory && HOSPITAL_WIDE.some((prefix) => route.url.startsWith(prefix)) ? [] : leaks(res, fill.supplied);
          if (told.length) found.push(`${caller.who} ${route.method} ${url} → ${res.statusCode}: ${told.join(', ')}`);
          // An image, file or descriptor for a URL naming the fixture is the fixture's.
          if (fill.supplied.length && res.statusCode < 400 && !isData(res)) found.push(`${caller.who} ${route.method} ${url} → ${res.statusCode} ${res.headers['content-type']}`);
        }
      }
    }
    expect(found).toEqual([]);
  }, 120_000);

  it('no list or count includes it: each answers the same with the fixture in a hospital nobody holds', async () => {
    const plain = reads().filter((r) => !r.url.includes(':') || QUERIES[r.url]);
    const answers = async () => {
      const out = new Map<string, string>();
      for (const caller of hostile) {
        for (const route of plain) {
          const query = QUERIES[route.url]?.(caller.hospital);
          for (const fill of fills(route.url)) {
            const url = query ? `${fill.url}?${query}` : fill.url;
            const res = await request(caller.token, route.method, url, route.method === 'POST' ? {} : undefined);
            // Times and fresh nonces differ from one call to the next; what is counted does not.
            out.set(`${caller.who} ${route.method} ${url}`, `${res.statusCode} ${res.body.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, 'T').replace(/"(nonce|key_id|public_key|challenge)":"[^"]*"/g, '"$1"')}`);
          }
        }
      }
      return out;
    };
    const withFixture = await answers();
    await moveFixture(nowhere);
    const without = await answers().finally(() => moveFixture(general));
    const differing = [...withFixture.keys()].filter((k) => withFixture.get(k) !== without.get(k));
    expect(differing).toEqual([]);
  }, 120_000);

  it('no write route reaches it: harmless bodies change nothing of the fixture and answer nothing of it', async () => {
    const before = await snapshot();
    const bodies = [{}, { id: FX.case, ids: [FX.case, FX.slide, FX.report], case_id: FX.case, slide_id: FX.slide, slide_ids: [FX.slide], report_id: FX.report }];
    const found: string[] = [];
    const writes = routes.filter((r) => !skipped(r.url) && r.method !== 'GET' && !(r.method === 'POST' && r.audit === false));
    expect(writes.length).toBeGreaterThan(50);
    for (const caller of hostile) {
      for (const route of writes) {
        for (const fill of fills(route.url, WRITE_IDS)) {
          for (const body of bodies) {
            const res = await request(caller.token, route.method, fill.url, body);
            // The ids the body names are the caller's own input; the fixture's names are not.
            const told = leaks(res, body === bodies[0] ? fill.supplied : [...fill.supplied, ...IDS.map(String)]);
            if (told.length) found.push(`${caller.who} ${route.method} ${fill.url} → ${res.statusCode}: ${told.join(', ')}`);
          }
        }
      }
    }
    expect(found).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});
