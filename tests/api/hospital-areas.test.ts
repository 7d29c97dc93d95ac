import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES } from '../../src/core/constants.js';
import { translate } from '../../server/i18n/translate.js';
import { jobTypesFor } from '../../server/modules/job-types.js';
import { claimJob } from '../../server/modules/jobs/queries.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { areaStorages } from '../../server/storage/area-storages.js';
import { parseS3Connection } from '../../server/storage/storage-url.js';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.js';
import { call, databases, ingested, seal, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { md5, sendChunk } from './upload-helpers.js';

/**
 * Hospital areas (issue 29) on both databases: an area keeps its slides in its own storage (two local directories and
 * an S3 bucket on s3rver) and its slides' jobs on its own queue. A slide uploaded for a hospital of area B lands in B's
 * directory and its tiles, thumbnail and download come from there; a runner of queue A's does not claim B's jobs. Bad
 * settings are translated 422s, a hospital's own administrator can neither change areas nor move its hospital, and
 * every write is in the operation log. A hospital without an area keeps the default storage.
 */
let dir: string;
let slideBytes: Buffer;
let s3: LoopbackS3;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-areas-'));
  const file = path.join(dir, 'area-slide.tiff');
  await generateDemoSlide({ out: file, width: 3000, height: 2000, tileSize: 256, mpp: 0.25, seed: 29, slideId: 'AREA' });
  slideBytes = fs.readFileSync(file);
  s3 = await startLoopbackS3('dsms-areas', 'default-prefix');
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(databases)('hospital areas [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let runner: JobRunner | undefined;
  let admin: string;
  let branchAdmin: string;
  let general: number;
  let branch: number;
  const areas: Record<'a' | 'b' | 'c', number> = { a: 0, b: 0, c: 0 };
  const base = () => path.join(dir, `${kind}-base`);
  const areaDir = (name: string) => path.join(dir, `${kind}-area-${name}`);
  const config = () => ({ dataDir: base(), s3Connection: parseS3Connection(s3.env) });
  const route = '/api/config/areas';

  const upload = async (token: string, name: string) => {
    const totalNum = Math.ceil(slideBytes.length / UPLOAD_CHUNK_BYTES);
    let answer: Record<string, unknown> = {};
    for (let num = 1; num <= totalNum; num++) {
      const res = await sendChunk(app, { name, data: slideBytes, totalNum, totalMd5: md5(slideBytes) }, num, { token });
      expect(res.statusCode, res.body).toBe(200);
      answer = res.json().data;
    }
    expect(answer.code).toBe(1);
    return String(answer.path);
  };
  const bind = async (token: string, name: string) => {
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token, payload: { path: await upload(token, `${name}.tiff`), name } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: number; file_path: string; status: string };
  };
  const tile = (token: string, id: number) => call(app, 'GET', `/api/tiles/${id}_files/11/2_1.jpeg`, { token });

  beforeAll(async () => {
    h = await startApp(kind);
    // The slide jobs run through runners started below (one per queue), not the harness's ingest runner.
    app = await testApp(h.db, config(), { ingest: false });
    await app.ready();
    [general, branch] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    admin = await tokenFor(app, 'admin');
    expect((await call(app, 'POST', '/api/auth/switch_hospital', { token: admin, payload: { hospital_id: branch } })).statusCode).toBe(200);
    // The branch's own administrator (hospital_config, no area_config), as a sub-centre is set up.
    const role = (await h.db.selectFrom('roles').select('id').where('identification', '=', 'sub_center_admin').executeTakeFirstOrThrow()).id;
    const made = await call(app, 'POST', '/api/system_management/users/store', { token: admin, payload: {
      name: 'areaadmin', realname: 'areaadmin', password: await seal(app, 'dsms-demo'), password_confirmation: await seal(app, 'dsms-demo'),
      status: 1, hospital_ids: [branch], role_ids: [role],
    } });
    expect(made.statusCode, made.body).toBe(200);
    branchAdmin = await tokenFor(app, 'areaadmin');
  });
  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await h?.close();
  });

  it('refuses bad locations and queue names with translated errors, and changes nothing', async () => {
    const cases = [
      { lang: 'en-US', body: { storage_url: 'relative/dir', queue_names: 'area-x' }, field: 'storage_url', key: 'area.storage_not_absolute' },
      { lang: 'zh-CN', body: { storage_url: '/srv/../etc', queue_names: 'area-x' }, field: 'storage_url', key: 'area.storage_invalid' },
      { lang: 'en-US', body: { storage_url: 'ftp://host/x', queue_names: 'area-x' }, field: 'storage_url', key: 'area.storage_invalid' },
      { lang: 'zh-CN', body: { storage_url: areaDir('x'), queue_names: 'Area X' }, field: 'queue_names', key: 'area.queue_invalid' },
      { lang: 'en-US', body: { storage_url: areaDir('x'), queue_names: 'a,a' }, field: 'queue_names', key: 'area.queue_repeated' },
      { lang: 'en-US', body: { storage_url: areaDir('x'), queue_names: 'area-x', ip: 'not-an-ip' }, field: 'ip', key: 'area.ip_invalid' },
    ] as const;
    for (const c of cases) {
      const res = await call(app, 'POST', `${route}/store`, { token: admin, lang: c.lang, payload: { code: 'X', name: 'X', ...c.body } });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[c.field]).toEqual([translate(c.lang, c.key)]);
    }
    expect(await h.db.selectFrom('hospital_areas').select('id').execute()).toEqual([]);
  });

  it('the group administrator creates areas on two directories and a bucket; each write is logged', async () => {
    const make = async (code: string, storage_url: string, queue_names: string, ip?: string) => {
      const res = await call(app, 'POST', `${route}/store`, { token: admin, payload: { code, name: `院区 ${code}`, storage_url, queue_names, ip } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { id: number; storage_url: string; queue_names: string; ip: string | null };
    };
    const a = await make('A', `${areaDir('a')}/`, 'area-a', '10.0.1.5');
    // Stored in one spelling: no trailing slash, names without spaces.
    expect(a).toMatchObject({ storage_url: areaDir('a'), queue_names: 'area-a', ip: '10.0.1.5' });
    areas.a = a.id;
    areas.b = (await make('B', `file://${areaDir('b')}`, 'area-b, area-b-heavy')).id;
    expect((await call(app, 'GET', `${route}/item/${areas.b}`, { token: admin })).json().data).toMatchObject({ storage_url: areaDir('b'), queue_names: 'area-b,area-b-heavy' });
    areas.c = (await make('C', 's3://dsms-areas/area-c/', 'area-c')).id;
    const duplicate = await call(app, 'POST', `${route}/store`, { token: admin, lang: 'en-US', payload: { code: 'A', name: 'again', storage_url: areaDir('z'), queue_names: 'z' } });
    expect(duplicate.statusCode).toBe(409);

    const logged = await h.db.selectFrom('operation_logs').select(['method', 'path', 'status_code']).where('path', 'like', `${route}/store%`).execute();
    expect(logged.filter((l) => l.status_code === 200)).toHaveLength(3);
    expect(logged.every((l) => l.method === 'POST')).toBe(true);
  });

  it('a hospital’s own administrator may read the areas but neither change them nor move its hospital', async () => {
    expect((await call(app, 'GET', `${route}/lists`, { token: branchAdmin })).statusCode).toBe(200);
    const refused = await call(app, 'POST', `${route}/store`, { token: branchAdmin, lang: 'en-US', payload: { code: 'D', name: 'D', storage_url: areaDir('d'), queue_names: 'area-d' } });
    expect(refused.statusCode).toBe(403);
    expect((await call(app, 'PATCH', `${route}/update/${areas.a}`, { token: branchAdmin, payload: { storage_url: areaDir('elsewhere') } })).statusCode).toBe(403);
    expect((await call(app, 'DELETE', `${route}/destroy`, { token: branchAdmin, payload: { ids: [areas.a] } })).statusCode).toBe(403);
    const moved = await call(app, 'PATCH', `/api/config/hospitals/update/${branch}`, { token: branchAdmin, lang: 'zh-CN', payload: { area_id: areas.b } });
    expect(moved.statusCode, moved.body).toBe(403);
    // Its hospital's other settings stay its own to change.
    expect((await call(app, 'PATCH', `/api/config/hospitals/update/${branch}`, { token: branchAdmin, payload: { name: '分院（改）' } })).statusCode).toBe(200);
    const row = await h.db.selectFrom('hospitals').select(['area_id', 'name']).where('id', '=', branch).executeTakeFirstOrThrow();
    expect(row).toEqual({ area_id: null, name: '分院（改）' });
    expect(await h.db.selectFrom('hospital_areas').select(['code', 'storage_url']).where('id', '=', areas.a).executeTakeFirstOrThrow()).toEqual({ code: 'A', storage_url: areaDir('a') });
  });

  it('the group administrator puts the branch in area B; an unknown area is refused', async () => {
    const unknown = await call(app, 'PATCH', `/api/config/hospitals/update/${branch}`, { token: admin, lang: 'en-US', payload: { area_id: 999_999 } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.area_id).toEqual([translate('en-US', 'area.not_found')]);
    const res = await call(app, 'PATCH', `/api/config/hospitals/update/${branch}`, { token: admin, payload: { area_id: areas.b } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(app, 'GET', `/api/config/hospitals/item/${branch}`, { token: admin })).json().data.area_id).toBe(areas.b);
  });

  it('a slide bound for a hospital of area B lands in B’s directory, on B’s queue, which a runner of queue A leaves alone', async () => {
    const slide = await bind(admin, 'in-area-b');
    expect(slide.file_path).toMatch(new RegExp(`^slides/areas/${areas.b}/\\d{4}/\\d{2}/in-area-b\\.tiff$`));
    expect(fs.readFileSync(path.join(areaDir('b'), slide.file_path)).equals(slideBytes)).toBe(true);
    expect(fs.existsSync(path.join(base(), slide.file_path))).toBe(false);
    expect((await h.db.selectFrom('slides').select('area_id').where('id', '=', slide.id).executeTakeFirstOrThrow()).area_id).toBe(areas.b);
    const job = await h.db.selectFrom('jobs').select(['id', 'queue', 'status']).where('slide_id', '=', slide.id).executeTakeFirstOrThrow();
    expect(job).toEqual({ id: job.id, queue: 'area-b', status: 'queued' });

    // What a runner started with JOB_QUEUES=area-a (or default) claims: not B's job.
    expect(await claimJob(h.db, ['slides.ingest'], 'node-of-area-a', 30_000, ['area-a'])).toBeUndefined();
    expect(await claimJob(h.db, ['slides.ingest'], 'node-of-default', 30_000, ['default'])).toBeUndefined();
    expect((await h.db.selectFrom('jobs').select('status').where('id', '=', job.id).executeTakeFirstOrThrow()).status).toBe('queued');

    // B's node runs it: read from B's directory, its thumbnail written there, its focus check and its label's barcode
    // reading (the demo slide has a label) queued on B's queue.
    runner = startJobRunner(h.db, { types: jobTypesFor({ ...config(), jobLeaseMs: 30_000 }), log: { info() {}, warn() {}, error() {} }, pollMs: 50, queues: ['area-b'] });
    const row = await ingested(app, admin, slide.id);
    expect(row.status, JSON.stringify(row)).toBe('ready');
    expect(fs.existsSync(path.join(areaDir('b'), 'slides', 'thumbs', `${slide.id}.jpg`))).toBe(true);
    expect(fs.existsSync(path.join(base(), 'slides', 'thumbs', `${slide.id}.jpg`))).toBe(false);
    const ran = await h.db.selectFrom('jobs').select(['type', 'queue', 'lease_owner']).where('slide_id', '=', slide.id).orderBy('id').execute();
    expect(ran.map((j) => [j.type, j.queue])).toEqual([['slides.ingest', 'area-b'], ['slides.focus', 'area-b'], ['slides.label_bind', 'area-b']]);
  });

  it('serves the area slide’s tiles, thumbnail and download from B’s directory; a hospital without an area keeps the default storage', async () => {
    // The technician works in the general hospital, which is in no area.
    expect((await h.db.selectFrom('hospitals').select('area_id').where('id', '=', general).executeTakeFirstOrThrow()).area_id).toBeNull();
    const technician = await tokenFor(app, 'technician');
    const inDefault = await bind(technician, 'in-default');
    expect((await h.db.selectFrom('slides').select(['hospital_id', 'area_id']).where('id', '=', inDefault.id).executeTakeFirstOrThrow())).toEqual({ hospital_id: general, area_id: null });
    expect(inDefault.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/in-default\.tiff$/);
    expect(fs.existsSync(path.join(base(), inDefault.file_path))).toBe(true);
    expect((await h.db.selectFrom('jobs').select('queue').where('slide_id', '=', inDefault.id).executeTakeFirstOrThrow()).queue).toBe('default');
    await ingestNow(h.db, base(), inDefault.id);

    const inB = await h.db.selectFrom('slides').select(['id', 'file_path']).where('area_id', '=', areas.b).executeTakeFirstOrThrow();
    const [x, y] = [await tile(technician, inDefault.id), await tile(admin, inB.id)];
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    // The same file in two storages: the same bytes.
    expect(y.rawPayload.equals(x.rawPayload)).toBe(true);
    const thumb = await call(app, 'GET', `/api/data/kfb/thumb/${inB.id}`, { token: admin });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.rawPayload.equals(fs.readFileSync(path.join(areaDir('b'), 'slides', 'thumbs', `${inB.id}.jpg`)))).toBe(true);
    const link = await call(app, 'POST', `/api/data/kfb/download/${inB.id}`, { token: admin });
    expect(link.statusCode, link.body).toBe(200);
    const file = await call(app, 'GET', link.json().data.url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(slideBytes)).toBe(true);
    const dicom = await call(app, 'GET', `/api/data/kfb/${inB.id}/dicom`, { token: admin });
    expect(dicom.statusCode).toBe(200);
    expect(dicom.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('an area holding slides keeps its location and is not deleted', async () => {
    const moved = await call(app, 'PATCH', `${route}/update/${areas.b}`, { token: admin, lang: 'en-US', payload: { storage_url: areaDir('b2') } });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().errors.storage_url).toEqual([translate('en-US', 'area.storage_in_use')]);
    const gone = await call(app, 'DELETE', `${route}/destroy`, { token: admin, lang: 'zh-CN', payload: { ids: [areas.b] } });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toBe(translate('zh-CN', 'area.in_use'));
    // An empty area may change and go.
    expect((await call(app, 'PATCH', `${route}/update/${areas.a}`, { token: admin, payload: { storage_url: areaDir('a2'), name: 'A2' } })).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `${route}/destroy`, { token: admin, payload: { ids: [areas.a] } })).statusCode).toBe(200);
    expect(await h.db.selectFrom('hospital_areas').select('code').orderBy('code').execute()).toEqual([{ code: 'B' }, { code: 'C' }]);
  });

  it('a hospital moved to an area on S3 stores its new slides in that bucket; its earlier slides stay in B', async () => {
    expect((await call(app, 'PATCH', `/api/config/hospitals/update/${branch}`, { token: admin, payload: { area_id: areas.c } })).statusCode).toBe(200);
    const slide = await bind(admin, 'in-area-c');
    expect(slide.file_path).toMatch(new RegExp(`^slides/areas/${areas.c}/\\d{4}/\\d{2}/in-area-c\\.tiff$`));
    expect((await h.db.selectFrom('jobs').select('queue').where('slide_id', '=', slide.id).executeTakeFirstOrThrow()).queue).toBe('area-c');
    // C's node: the job run as a runner of that node would, reading and writing back through the bucket.
    const registry = areaStorages(config());
    const job = await ingestNow(h.db, base(), slide.id, { areas: registry });
    expect(job.status, job.error ?? '').toBe('done');
    const bucket = registry.of({ id: areas.c, storage_url: 's3://dsms-areas/area-c' }).storage;
    expect(await bucket.stat(slide.file_path)).not.toBeNull();
    expect(await bucket.stat(`slides/thumbs/${slide.id}.jpg`)).not.toBeNull();
    expect(fs.existsSync(path.join(base(), slide.file_path))).toBe(false);

    const inB = await h.db.selectFrom('slides').select('id').where('area_id', '=', areas.b).executeTakeFirstOrThrow();
    const [x, y] = [await tile(admin, inB.id), await tile(admin, slide.id)];
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(y.rawPayload.equals(x.rawPayload)).toBe(true);
    expect((await call(app, 'GET', `/api/data/kfb/thumb/${slide.id}`, { token: admin })).statusCode).toBe(200);

    // Deleted, it takes its object and thumbnail out of the bucket.
    expect((await call(app, 'DELETE', '/api/data/kfb/destroy', { token: admin, payload: { ids: [slide.id] } })).statusCode).toBe(200);
    expect(await bucket.stat(slide.file_path)).toBeNull();
    expect(await bucket.stat(`slides/thumbs/${slide.id}.jpg`)).toBeNull();
  });
});
