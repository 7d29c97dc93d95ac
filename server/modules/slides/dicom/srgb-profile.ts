import sharp from '../../tiles/vips.js';

let profile: Promise<Buffer> | undefined;

/**
 * The sRGB ICC profile libvips ships (what the tile server's JPEGs are in), read once from a 1-pixel JPEG it tags
 * with it. The Optical Path module wants the profile of every colour image.
 */
export function srgbProfile(): Promise<Buffer> {
  profile ??= sharp({ create: { width: 1, height: 1, channels: 3, background: { r: 255, g: 255, b: 255 } } })
    .withIccProfile('srgb').jpeg().toBuffer()
    .then(async (jpeg) => {
      const { icc } = await sharp(jpeg).metadata();
      if (!icc) throw new Error('libvips gave no sRGB profile');
      return icc;
    });
  profile.catch(() => { profile = undefined; });
  return profile;
}
