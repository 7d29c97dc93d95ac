import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AppError } from '../../http/errors.js';

const run = promisify(execFile);

/**
 * PDFs joined into one, in order, by poppler's pdfunite (poppler-utils, which the preview's pdftoppm comes with): the
 * signed documents are printed byte for byte as they were signed, page after page, never re-rendered.
 */
export async function mergePdfs(pdfs: Buffer[]): Promise<Buffer> {
  if (pdfs.length === 1) return pdfs[0];
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-print-'));
  try {
    const files = await Promise.all(pdfs.map(async (pdf, i) => {
      const file = path.join(dir, `${String(i).padStart(4, '0')}.pdf`);
      await fs.writeFile(file, pdf);
      return file;
    }));
    const out = path.join(dir, 'all.pdf');
    await run('pdfunite', [...files, out], { timeout: 60_000 })
      .catch((e: NodeJS.ErrnoException) => { throw e.code === 'ENOENT' ? new AppError(503, 'diagnosis.print_unavailable') : e; });
    return await fs.readFile(out);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
