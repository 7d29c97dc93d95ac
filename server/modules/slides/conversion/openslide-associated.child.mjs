// Reads one associated image (thumbnail, label, macro) of a slide through libopenslide and writes it to stdout as
// 8 bytes (width, height: uint32 LE) followed by RGB pixels. Runs in a child process of its own: Debian's
// libvips 8.14.1 segfaults reading associated images (libvips PR #3384), and a crash in a C library here must
// not take the server down. Exit codes: 0 done, 2 no such image, 3 too large, 4 OpenSlide cannot read the file.
import koffi from 'koffi';

const [file, name, maxPixelsArg] = process.argv.slice(2);
const maxPixels = Number(maxPixelsArg);
const lib = koffi.load('libopenslide.so.0');
const Slide = koffi.pointer(koffi.opaque('openslide_t'));
const open = lib.func('openslide_open', Slide, ['const char *']);
const error = lib.func('openslide_get_error', 'const char *', [Slide]);
const dimensions = lib.func('openslide_get_associated_image_dimensions', 'void', [Slide, 'const char *', koffi.out(koffi.pointer('int64_t')), koffi.out(koffi.pointer('int64_t'))]);
const read = lib.func('openslide_read_associated_image', 'void', [Slide, 'const char *', 'uint32_t *']);
const close = lib.func('openslide_close', 'void', [Slide]);

const slide = open(file);
if (!slide) process.exit(4);
try {
  if (error(slide)) { process.stderr.write(String(error(slide))); process.exit(4); }
  const w = [0n], h = [0n];
  dimensions(slide, name, w, h);
  const width = Number(w[0]), height = Number(h[0]);
  if (!(width > 0 && height > 0)) process.exit(2);
  if (width * height > maxPixels) process.exit(3);
  const argb = new Uint32Array(width * height);
  read(slide, name, argb);
  if (error(slide)) { process.stderr.write(String(error(slide))); process.exit(4); }
  // Premultiplied ARGB in native (little-endian) order; associated images are opaque, so the colour is as stored.
  const out = Buffer.alloc(8 + width * height * 3);
  out.writeUInt32LE(width, 0);
  out.writeUInt32LE(height, 4);
  for (let i = 0, o = 8; i < argb.length; i++, o += 3) {
    const p = argb[i];
    out[o] = (p >>> 16) & 255;
    out[o + 1] = (p >>> 8) & 255;
    out[o + 2] = p & 255;
  }
  process.stdout.write(out);
} finally {
  close(slide);
}
