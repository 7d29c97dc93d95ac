/**
 * A page schema as the resource layer reads it: the form of the page a resource names (`page`) checks its
 * writes. The schemas module's PageSchema has this shape; it is declared here so this layer needs no module.
 */
export type FormPage = Record<string, unknown> & { alias: string; type: string; resource?: string };
