import { spawn } from 'node:child_process';
import type { OcrConfig } from '../../config.js';
import { AppError } from '../../http/errors.js';

/**
 * binary: the program (TESSERACT_PATH), Debian's `tesseract` on the PATH by default; languages: the models read with
 * (Debian's tesseract-ocr-chi-sim and tesseract-ocr-eng); memoryMb: the address space the process may take
 * (ulimit -v), so a hostile image cannot make it eat the server's memory.
 */
export type TesseractOptions = OcrConfig;

export const OCR_DEFAULTS: OcrConfig = { binary: 'tesseract', languages: 'chi_sim+eng', timeoutMs: 30_000, memoryMb: 1024 };

/** What a label says fits in far less; more is a runaway process, cut off. */
const MAX_OUTPUT_BYTES = 64 * 1024;
/**
 * "exec: …: not found" from the shell, or no such model: what is missing is named to the administrator. (A process
 * that cannot even load within the memory limit also exits 127, with "failed to map segment": that is a failure.)
 */
const MISSING = /exec: .*not found|Failed loading language|Error opening data file/i;

/**
 * Reads the text of an image (PNG bytes on stdin) with Tesseract, run as a child process under a shell that sets the
 * memory limit first; killed at the timeout. Uses one thread (OMP_THREAD_LIMIT): OCR must not starve the server.
 */
export function readText(png: Buffer, options: TesseractOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    // The values travel in the environment, not the command line: nothing of them is ever parsed by the shell.
    const child = spawn('/bin/sh', ['-c', 'ulimit -v "$DSMS_OCR_KB" && exec "$DSMS_OCR_BIN" stdin stdout -l "$DSMS_OCR_LANGS" --psm 3'], {
      stdio: ['pipe', 'pipe', 'pipe'], timeout: options.timeoutMs, killSignal: 'SIGKILL',
      env: {
        // PATH passed on to find the shell's tools, not a setting (config.ts reads those).
        PATH: process.env.PATH ?? '/usr/bin:/bin', OMP_THREAD_LIMIT: '1',
        DSMS_OCR_KB: String(options.memoryMb * 1024), DSMS_OCR_BIN: options.binary, DSMS_OCR_LANGS: options.languages,
      },
    });
    const out: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr = (stderr + text).slice(-2000); });
    // A program that died before reading its input closes the pipe under us: its exit code says why.
    child.stdin.on('error', () => {});
    child.on('error', () => reject(new AppError(503, 'ocr.missing')));
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL' && bytes <= MAX_OUTPUT_BYTES) return reject(new AppError(504, 'ocr.timeout', { seconds: Math.round(options.timeoutMs / 1000) }));
      if (code !== 0 && MISSING.test(stderr)) return reject(new AppError(503, 'ocr.missing'));
      if (code !== 0 || signal) return reject(new AppError(502, 'ocr.failed', { reason: (stderr.trim().split('\n').pop() ?? '').slice(0, 200) || String(signal ?? code) }));
      resolve(Buffer.concat(out).toString('utf8'));
    });
    child.stdin.end(png);
  });
}
