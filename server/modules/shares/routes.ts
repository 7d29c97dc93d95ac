import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_SHARE_SECONDS, flagsHeld, flagsNotHeld, MAX_SHARE_SECONDS, SHARE_FLAG_PERMISSION, SHARE_PERMISSION_KEYS, type SharePermissions } from '../../../src/core/sharePermissions.js';
import { isAdmin } from '../../../src/core/admin.js';
import { hasPermission } from '../../http/access.js';
import { coversCase, directoryRestriction } from '../../../src/core/subspecialty.js';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { imageCookieToken } from '../../http/image-cookie.js';
import type { TypedApp } from '../../http/types.js';
import type { SessionResolver } from '../../http/guard.js';
import { annotationsOf } from '../annotations/queries.js';
import { wire } from '../annotations/routes.js';
import { slideIn } from '../slides/queries.js';
import { etagMatches, parseDziTilePath, REVALIDATE } from '../tiles/tile-http.js';
import type { TileService } from '../tiles/tile-service.js';
import { membersOf, recipientsOf } from '../messages/queries.js';
import { roleAccessOf } from '../users/queries.js';
import { notify } from '../messages/notify.js';
import { createShare, revokeShare, shareById, shareByToken, sharedCaseDirectory, sharedSlide, sharerName, sharesBy, slideOfShare } from './queries.js';
import { binaryResponse, okResponse } from '../../http/responses.js';

const Token = Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Permissions = Type.Object(Object.fromEntries(SHARE_PERMISSION_KEYS.map((k) => [k, Type.Optional(Type.Boolean())])), { additionalProperties: false });
const CreateBody = Type.Object({
  slide_id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }),
  expires_in_seconds: Type.Optional(Type.Integer({ minimum: 5, maximum: MAX_SHARE_SECONDS })),
  permissions: Type.Optional(Permissions),
  /** A user of the slide's hospital to send the link to: they get a system message with it. */
  recipient_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 })),
}, { additionalProperties: false });
const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });
const Str = Type.String({ maxLength: 200 });

/**
 * Slide share links (spec §6, §9). Creating, listing and revoking need a session; the shared page's calls
 * (GET /api/share/view, tiles under /api/tiles/share/<token>/…) take the link's token instead, checked on every
 * call: unknown 404, expired 410, revoked 403; a need-login link also wants a session of the slide's hospital
 * (the bearer header, or for tiles the image cookie, whose path covers /api/tiles).
 *
 * The link's own routes read through `systemDb`, unscoped: the token is the grant (a link without need-login opens
 * signed out), and `usable` applies the need-login rule of hospital and directory itself.
 */
export function shareRoutes(app: TypedApp, db: Db, systemDb: Db, tiles: TileService, resolveSession: SessionResolver): void {
  app.post('/api/shares', {
    config: { access: { permission: 'slide_view' } },
    schema: { tags: ['shares'], body: CreateBody, summary: 'Create a share link for a slide', response: okResponse() },
  }, async (request) => {
    const { slide_id, expires_in_seconds, permissions, recipient_id: recipientId } = request.body;
    const slide = await slideIn(db, slide_id);
    if (!slide) throw new AppError(404, 'slide.not_found');
    const row = await slideOfShare(db, slide_id);
    // Checked before anything is written: an unknown, disabled or other-hospital recipient leaves no share behind.
    if (recipientId !== undefined && !(await membersOf(db, row.hospital_id, [recipientId])).length) {
      throw new AppError(422, 'error.validation', {}, { recipient_id: [{ key: 'share.recipient_unknown' }] });
    }
    const perms = Object.fromEntries(SHARE_PERMISSION_KEYS.map((k) => [k, permissions?.[k] === true])) as unknown as SharePermissions;
    // A link shows no more than its creator may see: each flag wants its permission (an administrator holds all).
    const [flag] = flagsNotHeld(perms, (code) => hasPermission(request.auth!, code));
    if (flag) throw new AppError(403, 'share.flag_not_yours', { flag: `msg:share.flag.${flag}`, permission: SHARE_FLAG_PERMISSION[flag] });
    const share = await createShare(db, {
      slideId: slide_id, hospitalId: row.hospital_id, userId: request.auth!.id, permissions: perms, seconds: expires_in_seconds ?? DEFAULT_SHARE_SECONDS, recipientId,
    });
    const path = `/share/view?token=${share.token}`;
    if (recipientId !== undefined) {
      const by = await sharerName(db, request.auth!.id);
      // The link (with its token) is kept in the recipient's message only: it is theirs to open until it expires.
      await notify(db, row.hospital_id, [recipientId], 'share_received', { by, slide: row.name, until: share.expires_at.slice(0, 16).replace('T', ' ') }, path);
    }
    return ok({ ...share, slide_id, permissions: perms, path, recipient_id: recipientId ?? null });
  });

  app.get('/api/shares/recipients', {
    config: { access: { permission: 'slide_view' } },
    schema: { tags: ['shares'], querystring: Type.Object({ slide_id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) }), summary: 'Who a share of this slide can be sent to: active users of its hospital', response: okResponse() },
  }, async (request) => {
    const slide = await slideIn(db, request.query.slide_id);
    if (!slide) throw new AppError(404, 'slide.not_found');
    const row = await slideOfShare(db, request.query.slide_id);
    return ok(await recipientsOf(db, row.hospital_id));
  });

  app.get('/api/shares/mine', {
    config: { access: 'user' },
    schema: { tags: ['shares'], summary: 'My share links, newest first', response: okResponse() },
  }, async (request) => ok(await sharesBy(db, request.auth!.id)));

  app.post('/api/shares/:id/revoke', {
    config: { access: 'user' },
    schema: { tags: ['shares'], params: Id, summary: 'Revoke a share link (its creator or an administrator)', response: okResponse() },
  }, async (request) => {
    const share = await shareById(db, request.params.id);
    if (!share) throw new AppError(404, 'share.not_found');
    if (share.created_by !== request.auth!.id && !isAdmin(request.auth!)) throw new AppError(403, 'share.not_yours');
    await revokeShare(db, share.id);
    return ok(null);
  });

  /** The share behind a token if it may be used now by this request, else the refusal; `viewer`: a need-login link's session. */
  const usable = async (request: FastifyRequest, token: string, cookieSession: boolean) => {
    const share = await shareByToken(systemDb, token);
    if (!share) throw new AppError(404, 'share.not_found');
    // Expired: 410 Gone; revoked: 403, its owner withdrew it (the page words the two differently).
    if (share.state === 'expired') throw new AppError(410, 'share.expired');
    if (share.state === 'revoked') throw new AppError(403, 'share.revoked');
    if (share.permissions.need_login) {
      let session = request.auth;
      if (!session && cookieSession) {
        const cookie = imageCookieToken(request.headers.cookie);
        session = cookie ? await resolveSession(cookie) : null;
      }
      if (!session || session.screenLocked || !session.hospitalIds.includes(share.hospital_id)) throw new AppError(401, 'share.login_required');
      // A need-login link opens for those the hospital would show the slide to, so the session's subspecialty
      // directories hold as its hospitals do (spec §6). A link without it is its own grant: anyone holding it may
      // open it signed out, so holding a signed-in user to their directories there would protect nothing.
      if (!coversCase(directoryRestriction(session), await sharedCaseDirectory(systemDb, share.slide_id))) throw new AppError(401, 'share.login_required');
      return { share, viewer: session };
    }
    return { share, viewer: null };
  };

  app.get('/api/share/view', {
    config: { access: 'public' },
    schema: { tags: ['shares'], querystring: Type.Object({ token: Token }), summary: 'What a share link shows: the slide and what its permissions allow', response: okResponse() },
  }, async (request) => {
    const { share, viewer } = await usable(request, request.query.token, false);
    // What it shows now: each flag while its creator still holds the permission, and on a need-login link while
    // the viewer holds it too (a link is no way round what their own roles show them).
    const creator = await roleAccessOf(systemDb, share.created_by);
    const permissions = flagsHeld(share.permissions, (code) => hasPermission(creator, code), ...(viewer ? [(code: string) => hasPermission(viewer, code)] : []));
    const slide = await sharedSlide(systemDb, share.slide_id, permissions);
    if (!slide) throw new AppError(404, 'share.not_found');
    return ok({
      slide, permissions, expires_at: share.expires_at,
      annotations: permissions.annotation ? (await annotationsOf(systemDb, share.slide_id)).map(wire) : null,
      dzi: `/api/tiles/share/${request.query.token}/${share.slide_id}.dzi`,
    });
  });

  // The slide's tiles through the link: only that slide, only while the link holds.
  const tileOf = async (request: FastifyRequest, token: string, key: string) => {
    const { share } = await usable(request, token, true);
    if (key !== String(share.slide_id)) throw new AppError(404, 'slide.not_found');
    return tiles.open(key);
  };
  const tileCommon = { config: { access: 'public' as const }, logLevel: 'warn' as const };

  app.get('/api/tiles/share/:token/:descriptor', {
    ...tileCommon,
    schema: { tags: ['shares'], params: Type.Object({ token: Token, descriptor: Str }), summary: 'Deep Zoom descriptor of a shared slide', response: binaryResponse('application/xml') },
  }, async (request, reply) => {
    const { token, descriptor } = request.params;
    if (!descriptor.endsWith('.dzi')) throw new AppError(404, 'tile.bad_address', { path: descriptor });
    const handle = await tileOf(request, token, descriptor.slice(0, -4));
    // Revalidated on every use, so an expired link's descriptor is not served from a cache.
    reply.header('cache-control', REVALIDATE);
    return reply.type('application/xml; charset=utf-8').send(tiles.dziDescriptor(handle));
  });

  app.get('/api/tiles/share/:token/:files/:level/:tile', {
    ...tileCommon,
    schema: { tags: ['shares'], params: Type.Object({ token: Token, files: Str, level: Str, tile: Str }), summary: 'Deep Zoom tile of a shared slide', response: binaryResponse('image/jpeg') },
  }, async (request, reply) => {
    const { token, files, level, tile } = request.params;
    const address = parseDziTilePath(files, level, tile);
    if (!address) throw new AppError(404, 'tile.bad_address', { path: `${files}/${level}/${tile}` });
    const handle = await tileOf(request, token, address.key);
    const etag = tiles.dziEtag(handle, address.level, address.col, address.row);
    // Revalidated (a 304 costs little): the browser must not keep showing tiles once the link has ended.
    const headers = { etag, 'cache-control': REVALIDATE };
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).headers(headers).send();
    const image = tiles.peekDziTile(handle, address.level, address.col, address.row) ?? (await tiles.dziTile(handle, address.level, address.col, address.row));
    return reply.headers({ ...headers, 'content-type': image.contentType }).send(image.body);
  });
}
