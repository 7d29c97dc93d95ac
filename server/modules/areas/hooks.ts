import { isIP } from 'node:net';
import { areaStorageUrl, parseAreaStorage, parseQueueNames } from '../../../src/core/hospitalArea.js';
import { hasPermission } from '../../http/access.js';
import { AppError, forbidden } from '../../http/errors.js';
import type { MessageKey } from '../../i18n/messages.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';
import { areaExists, areaHasHospitals, areaHoldsSlides, areaLocation, areaNames, hospitalArea } from './queries.js';

/** Who may set up areas and move a hospital into one: the group's administrators, not a hospital's own. */
export const AREA_PERMISSION = 'area_config';

const invalid = (field: string, key: string): AppError =>
  new AppError(422, key as MessageKey, {}, { [field]: [{ key: key as MessageKey }] });

/**
 * Hospital areas (issue 29): the storage location is an absolute directory or `s3://bucket/prefix`, stored in one
 * spelling; the queue names a short list. A location holding slides stays (they are read from it by their row's area),
 * and an area still holding slides or hospitals is not deleted.
 */
export const hospitalAreaHooks: ResourceHooks = {
  async beforeWrite(data, ctx, db) {
    const out: Record<string, unknown> = {};
    if (typeof data.storage_url === 'string') {
      const location = parseAreaStorage(data.storage_url);
      if ('error' in location) throw invalid('storage_url', location.error);
      out.storage_url = areaStorageUrl(location);
      const current = ctx.id === undefined ? undefined : await areaLocation(db, ctx.id);
      if (current && current.storage_url !== out.storage_url && (await areaHoldsSlides(db, [current.id]))) {
        throw new AppError(409, 'area.storage_in_use', {}, { storage_url: [{ key: 'area.storage_in_use' }] });
      }
    }
    if (typeof data.queue_names === 'string') {
      const names = parseQueueNames(data.queue_names);
      if (!Array.isArray(names)) throw invalid('queue_names', names.error);
      out.queue_names = names.join(',');
    }
    if (typeof data.ip === 'string') {
      const ip = data.ip.trim();
      if (ip && !isIP(ip)) throw invalid('ip', 'area.ip_invalid');
      out.ip = ip || null;
    }
    return out;
  },
  async beforeDelete(trx, ids) {
    if ((await areaHoldsSlides(trx, ids)) || (await areaHasHospitals(trx, ids))) throw new AppError(409, 'area.in_use');
  },
};

/**
 * A hospital's area decides where its slides are stored and converted: only an area administrator moves a hospital
 * into one (a hospital's own administrator edits its other settings), and only into an area that exists. Rows carry
 * their area's name for the list.
 */
export const hospitalHooks: ResourceHooks = {
  consumes: ['area_name'],

  async afterRead(db, rows) {
    const names = await areaNames(db, [...new Set(rows.map((r) => r.area_id).filter((id): id is number => typeof id === 'number'))]);
    return rows.map((r) => ({ ...r, area_name: typeof r.area_id === 'number' ? (names.get(r.area_id) ?? null) : null }));
  },

  async beforeWrite(data, ctx, db) {
    if (!('area_id' in data)) return {};
    const next = data.area_id ?? null;
    const current = ctx.id === undefined ? null : ((await hospitalArea(db, ctx.id))?.area_id ?? null);
    if (next === current) return {};
    if (!hasPermission(ctx.user, AREA_PERMISSION)) throw forbidden(AREA_PERMISSION);
    if (typeof next === 'number' && !(await areaExists(db, next))) throw invalid('area_id', 'area.not_found');
    return {};
  },
};
