import type { ConversionContext } from './page-language-2.js';
import snapshot from './page-language-2-base.json';

/**
 * What migration 0012 read from the base pages and resource definitions when it was written down (the release
 * that brought the second page language): per page alias, its form's field list and, for a page of a resource,
 * the fields its write contract accepts and requires. A snapshot, so the migration converts the same way when
 * schemas/ changes later.
 */
interface BasePage {
  formFields?: unknown[];
  resource?: string;
  /** False for a read-only resource: no contract extension is made for it. */
  writable?: boolean;
  contract?: { fields: string[]; required: string[] } | null;
}

const pages = snapshot as Record<string, BasePage>;

export interface FrozenBase {
  context: ConversionContext;
  /** The resource whose contract a hospital's form additions extend (absent: none). */
  extends?: string;
}

export function frozenBase(alias: string): FrozenBase {
  const page = Object.hasOwn(pages, alias) ? pages[alias] : undefined;
  const contract = page?.contract;
  return {
    context: {
      basePage: page ? (page.formFields !== undefined ? { form: { fields: page.formFields } } : {}) : undefined,
      contract: contract ? { fields: Object.fromEntries(contract.fields.map((f) => [f, true])), required: contract.required } : null,
    },
    ...(page?.resource && page.writable ? { extends: page.resource } : {}),
  };
}
