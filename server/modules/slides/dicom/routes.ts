import { Type } from '@sinclair/typebox';
import type { Db } from '../../../db/connect.js';
import { AppError } from '../../../http/errors.js';
import { hospitalScope } from '../../../http/hospital-scope.js';
import type { TypedApp } from '../../../http/types.js';
import { binaryResponse } from '../../../http/responses.js';
import type { ResourceDef } from '../../../resources/definition.js';
import { TileService } from '../../tiles/tile-service.js';
import type { AreaStorages } from '../../../storage/area-storages.js';
import { slidePlace } from '../../areas/place.js';
import { fromStored } from '../paths.js';
import { slideFile, slideIn } from '../queries.js';
import { logSlides } from '../section-log.js';
import { exportDicomSeries } from './export-series.js';
import { exportSubject } from './export-subject.js';
import { dicomUidNamespace } from './queries.js';
import { seriesUids } from './uids.js';

const Id = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/**
 * `GET /api/data/kfb/{id}/dicom`: the slide as a DICOM WSI series in a zip, for PACS and other viewers, with its
 * case's patient and specimen (export-subject.ts), under the slide's stable UIDs (the ones DICOMweb serves). Needs slide_download and the slide's hospital (another hospital's
 * slide is not found); each export is logged.
 * The export's own tile service keeps its decoded tiles apart from the viewer's cache; the tiles are read through the
 * block cache of the slide's storage (its hospital area's, or the default) on object storage.
 */
export function dicomExportRoutes(app: TypedApp, db: Db, def: ResourceDef, areas: AreaStorages): void {
  // On object storage the export streams from ranged GETs through the block cache of the slide's storage, as the viewer's tiles.
  const tiles = new TileService({ resolveSlide: async (file) => file, cacheBytes: 16 * 2 ** 20, remote: (file) => areas.remoteFor(file) });
  app.addHook('onClose', async () => tiles.close());

  app.get('/api/data/kfb/:id/dicom', {
    config: { access: { permission: 'slide_download' } },
    schema: { tags: ['resource:slides'], params: Id, summary: 'The slide as a DICOM WSI series (Supplement 145, TILED_FULL, JPEG baseline), one instance per level, in a zip', response: binaryResponse('application/zip') },
  }, async (request, reply) => {
    const { id } = request.params;
    const slide = await slideIn(db, id, hospitalScope(def, request) ?? []);
    const row = slide ? await slideFile(db, id) : undefined;
    if (!slide || !row) throw new AppError(404, 'slide.not_found');
    const handle = await tiles.open(fromStored((await slidePlace(db, areas, row.area_id)).root, row.file_path));
    const subject = await exportSubject(db, id);
    await logSlides(db, 'export_dicom', [slide], request.auth!);
    const name = `${row.name}.dicom.zip`;
    return reply.type('application/zip')
      .header('content-disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'private, no-store')
      .send(exportDicomSeries(tiles, handle, subject, seriesUids(await dicomUidNamespace(db), slide)));
  });
}
