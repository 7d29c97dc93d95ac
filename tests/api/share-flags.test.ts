import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SHARE_PERMISSIONS } from '../../src/core/sharePermissions.js';
import { createShare } from '../../server/modules/shares/queries.js';
import { call, databases, seal, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Issue 27 item 1: a share link shows no more than the people behind it may see. A flag needs its creator's
 * permission when the link is made (annotation: slide_annotation_view; diagnosis and labels: case_view), else a
 * translated 403 naming it and nothing stored; at view time a flag shows only while its creator still holds the
 * permission, and on a need-login link while the viewer does too. Link basics: shares.test.ts.
 */
describe.each(databases)('what share links show [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let slideId = 0;
  let hospitalId = 0;
  let pathologyNumber = '';

  const share = (token: string, permissions: Record<string, boolean>, lang = 'en-US') =>
    call(h.app, 'POST', '/api/shares', { token, lang, payload: { slide_id: slideId, permissions } });
  const view = (link: string, token?: string) => call(h.app, 'GET', `/api/share/view?token=${link}`, { token });
  const shareCount = async () => Number((await h.db.selectFrom('slide_shares').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
    // A slide of a demo case of the first hospital filed under no subspecialty directory (everyone's).
    hospitalId = (await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const kase = await h.db.selectFrom('cases').select(['id', 'pathology_number']).where('hospital_id', '=', hospitalId).where('subspecialty_id', 'is', null)
      .orderBy('id').executeTakeFirstOrThrow();
    pathologyNumber = kase.pathology_number;
    const now = new Date().toISOString();
    slideId = (await h.db.insertInto('slides').values({
      hospital_id: hospitalId, case_id: kase.id, name: 'FLAGS-1', file_path: 'shares/FLAGS-1.tiff', file_size: 0, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
    } as never).returning('id').executeTakeFirstOrThrow()).id;
    await h.db.insertInto('slide_annotations').values({
      slide_id: slideId, hospital_id: hospitalId, user_id: await userId(h.db, 'admin'), username: 'admin', type: 'rectangle', points: JSON.stringify([[1, 1], [9, 9]]),
      name: 'TUMOUR-AREA', description: '', color: '#ff0000', classification: '', length_um: null, area_um2: null, perimeter_um: null, version: 1, created_at: now, updated_at: now,
    }).execute();
  });
  afterAll(async () => h?.close());

  it('refuses a flag its creator does not hold, naming it in either language, and stores nothing', async () => {
    const before = await shareCount();
    for (const who of ['technician', 'scanner']) {
      const refused = await share(await tokenFor(h.app, who), { annotation: true });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().message).toBe('The link cannot show the slide annotations: you do not hold slide_annotation_view');
    }
    const clinician = await tokenFor(h.app, 'clinician');
    const diagnosis = await share(clinician, { diagnosis: true, annotation: true }, 'zh-CN');
    expect(diagnosis.statusCode).toBe(403);
    expect(diagnosis.json().message).toBe('分享链接不能包含“诊断信息”：您没有 case_view 权限');
    expect((await share(clinician, { labels: true })).json().message).toBe('The link cannot show the case labels: you do not hold case_view');
    expect(await shareCount()).toBe(before);

    // What they hold they may share: the clinician's annotations, the technician's plain link.
    expect((await share(clinician, { annotation: true })).statusCode).toBe(200);
    expect((await share(await tokenFor(h.app, 'technician'), { need_login: true })).statusCode).toBe(200);
    const primary = await share(await tokenFor(h.app, 'primary'), { annotation: true, diagnosis: true });
    expect(primary.statusCode).toBe(200);
    const shown = (await view(primary.json().data.token)).json().data;
    expect(shown.annotations.map((a: { name: string }) => a.name)).toEqual(['TUMOUR-AREA']);
    expect(shown.slide.diagnosis.pathology_number).toBe(pathologyNumber);
  });

  it('shows no flag its creator did not hold, as a link stored before this check was made', async () => {
    const technician = await userId(h.db, 'technician');
    const { token } = await createShare(h.db, {
      slideId, hospitalId, userId: technician, seconds: 600, permissions: { ...NO_SHARE_PERMISSIONS, annotation: true, diagnosis: true },
    });
    const signedOut = await view(token);
    expect(signedOut.statusCode).toBe(200);
    // The technician holds case_view (the diagnosis fields) but not slide_annotation_view.
    expect(signedOut.json().data).toMatchObject({ annotations: null, permissions: { annotation: false, diagnosis: true } });
    expect(signedOut.json().data.slide.diagnosis.pathology_number).toBe(pathologyNumber);
  });

  it('stops showing a flag once its creator loses the permission', async () => {
    const role = await call(h.app, 'POST', '/api/system_management/roles/store', { token: admin, payload: {
      name: '分享测试', identification: 'share_flags_role', extra: ['slide_view', 'case_view', 'slide_annotation_view'] } });
    expect(role.statusCode, role.body).toBe(200);
    const made = await call(h.app, 'POST', '/api/system_management/users/store', { token: admin, payload: {
      name: 'sharer', realname: 'sharer', password: await seal(h.app, 'dsms-demo'), password_confirmation: await seal(h.app, 'dsms-demo'),
      status: 1, hospital_ids: [hospitalId], role_ids: [role.json().data.id],
    } });
    expect(made.statusCode, made.body).toBe(200);
    const link = (await share(await tokenFor(h.app, 'sharer'), { annotation: true, diagnosis: true })).json().data.token as string;
    expect((await view(link)).json().data.annotations).toHaveLength(1);

    const taken = await call(h.app, 'PATCH', `/api/system_management/roles/update/${role.json().data.id}`, { token: admin, payload: { extra: ['slide_view', 'case_view'] } });
    expect(taken.statusCode, taken.body).toBe(200);
    const after = (await view(link)).json().data;
    expect(after).toMatchObject({ annotations: null, permissions: { annotation: false, diagnosis: true } });
  });

  it('on a need-login link, shows each viewer only what their own permissions show', async () => {
    const made = await share(await tokenFor(h.app, 'primary'), { annotation: true, diagnosis: true, need_login: true });
    expect(made.statusCode).toBe(200);
    const link = made.json().data.token as string;
    expect((await view(link)).statusCode).toBe(401);

    const doctor = (await view(link, await tokenFor(h.app, 'auditor'))).json().data;
    expect(doctor.annotations).toHaveLength(1);
    expect(doctor.slide.diagnosis.pathology_number).toBe(pathologyNumber);
    // A technician sees the case (case_view) but not annotations; a clinician the annotations but not the case.
    const technician = (await view(link, await tokenFor(h.app, 'technician'))).json().data;
    expect(technician).toMatchObject({ annotations: null, permissions: { annotation: false, diagnosis: true, need_login: true } });
    const clinician = (await view(link, await tokenFor(h.app, 'clinician'))).json().data;
    expect(clinician.annotations).toHaveLength(1);
    expect(clinician.slide.diagnosis).toBeNull();
    expect(clinician.permissions).toMatchObject({ annotation: true, diagnosis: false });
  });
});
