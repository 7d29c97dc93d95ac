/** The part of dcmjs (no bundled types) the DICOM export uses: naturalized data sets written as Part 10 files. */
declare module 'dcmjs' {
  type Naturalized = Record<string, unknown>;
  interface DicomDict {
    dict: Record<string, unknown>;
    write(options?: Record<string, unknown>): ArrayBuffer;
  }
  const dcmjs: {
    data: {
      DicomDict: new (meta: Record<string, unknown>) => DicomDict;
      DicomMetaDictionary: {
        denaturalizeDataset(dataset: Naturalized): Record<string, unknown>;
        naturalizeDataset(dataset: Record<string, unknown>): Naturalized;
      };
      DicomMessage: { readFile(buffer: ArrayBuffer, options?: Record<string, unknown>): { dict: Record<string, unknown>; meta: Record<string, unknown> } };
    };
  };
  export default dcmjs;
}
