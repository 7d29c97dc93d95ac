/** TIFF 6.0 / BigTIFF tag numbers and field types this module reads or writes. */
export const Tag = {
  NewSubfileType: 254,
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  Photometric: 262,
  ImageDescription: 270,
  StripOffsets: 273,
  SamplesPerPixel: 277,
  RowsPerStrip: 278,
  StripByteCounts: 279,
  XResolution: 282,
  YResolution: 283,
  PlanarConfiguration: 284,
  ResolutionUnit: 296,
  Software: 305,
  TileWidth: 322,
  TileLength: 323,
  TileOffsets: 324,
  TileByteCounts: 325,
  SubIFDs: 330,
  JPEGTables: 347,
  YCbCrSubSampling: 530,
} as const;

/** Field types (TIFF 6 §2 plus BigTIFF's LONG8/SLONG8/IFD8). */
export const FieldType = {
  BYTE: 1, ASCII: 2, SHORT: 3, LONG: 4, RATIONAL: 5, SBYTE: 6, UNDEFINED: 7, SSHORT: 8, SLONG: 9, SRATIONAL: 10,
  FLOAT: 11, DOUBLE: 12, IFD: 13, LONG8: 16, SLONG8: 17, IFD8: 18,
} as const;

/** Bytes per value of each field type; 0 marks a type this reader does not know. */
export const FIELD_SIZE: readonly number[] = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4, 0, 0, 8, 8, 8];

export const Compression = { None: 1, OldJpeg: 6, Jpeg: 7, Deflate: 8, AdobeDeflate: 32946, Lzw: 5, AperioJp2kYcc: 33003, AperioJp2kRgb: 33005 } as const;
export const Photometric = { MinIsWhite: 0, MinIsBlack: 1, Rgb: 2, YCbCr: 6 } as const;
export const ResolutionUnit = { None: 1, Inch: 2, Centimetre: 3 } as const;
