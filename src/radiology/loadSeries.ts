import { api } from '../api/client';
import { VIEWER_MAX_BYTES, VIEWER_MAX_IMAGES } from '../core/radiology';

export class SeriesLimitError extends Error {
  constructor(readonly limit: 'images' | 'bytes') {
    super(limit);
  }
}

/** How many instances are fetched at once: enough to fill a hospital link, few enough not to starve the page. */
const PARALLEL = 4;

/**
 * The series' DICOM files as File objects for dwv's loadFiles, fetched through the API client (the session's token;
 * GET /api/cases/images/{id}/file checks permission and hospital). Stops, with SeriesLimitError, once the series is
 * larger than the viewer opens; `signal` cancels (another series chosen, the page left).
 */
export async function fetchSeries(ids: readonly number[], signal: AbortSignal, onProgress: (done: number) => void): Promise<File[]> {
  if (ids.length > VIEWER_MAX_IMAGES) throw new SeriesLimitError('images');
  const files: File[] = new Array(ids.length);
  let bytes = 0;
  let done = 0;
  let next = 0;
  // One failure (or the caller's cancel) stops the other fetches too.
  const local = new AbortController();
  const cancel = () => local.abort();
  signal.addEventListener('abort', cancel);
  const worker = async () => {
    while (next < ids.length) {
      const at = next++;
      const { data } = await api.get<ArrayBuffer>(`/cases/images/${ids[at]}/file`, { responseType: 'arraybuffer', silent: true, signal: local.signal, timeout: 0 });
      bytes += data.byteLength;
      if (bytes > VIEWER_MAX_BYTES) throw new SeriesLimitError('bytes');
      files[at] = new File([data], `${ids[at]}.dcm`, { type: 'application/dicom' });
      onProgress(++done);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, () => worker().catch((err: unknown) => {
      local.abort();
      throw err;
    })));
  } finally {
    signal.removeEventListener('abort', cancel);
  }
  return files;
}
