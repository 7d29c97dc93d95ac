import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where a sent report goes (issue 15): the HIS and the clinical side get an HL7 FHIR R4 DiagnosticReport with the
 * report PDF as presentedForm. The adapter is chosen by REPORT_OUTBOUND: `none` (default: the send is recorded,
 * the clinical side reads it through the API) or `outbox` (each resource written as JSON under
 * <data>/outbox/fhir/, for an interface engine to pick up). A hospital's own adapter implements the same interface.
 */
export interface ReportOutbound {
  readonly name: string;
  deliver(resource: Record<string, unknown>): Promise<void>;
}

export function reportOutbound(kind: string | undefined, dataDir: string): ReportOutbound {
  if (kind === 'outbox') {
    const dir = path.join(dataDir, 'outbox', 'fhir');
    return {
      name: 'outbox',
      async deliver(resource) {
        await fs.mkdir(dir, { recursive: true });
        const file = path.join(dir, `${String(resource.id)}-${Date.now()}.json`);
        await fs.writeFile(`${file}.partial`, JSON.stringify(resource));
        await fs.rename(`${file}.partial`, file);
      },
    };
  }
  return { name: 'none', deliver: async () => undefined };
}
