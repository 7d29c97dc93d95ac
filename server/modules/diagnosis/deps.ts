import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import type { SigningKeys } from '../../http/signing-keys.js';
import type { RuleResolver } from '../../../src/core/rules.js';
import type { RuleStore } from '../schemas/store.js';
import type { Storage } from '../../storage/storage.js';
import { scopeOf } from '../cases/transition.js';
import type { ReportOutbound } from './outbound.js';
import type { ReportFontConfig } from './pdf.js';

/** What the diagnosis module needs from the app. */
export interface DiagnosisDeps {
  db: Db;
  /** Unscoped: only the public verification page, whose code is its own grant (app.ts, access-scope.ts). */
  systemDb: Db;
  rulesFor(hospitalId: number): Promise<RuleResolver>;
  /** The rule sets, for the workflow config (spec §7 config/workflow is the hospital's `workflow` rule set). */
  rules: RuleStore;
  /** Keys of the report verification signatures (the QR code's link). */
  verifyKeys: SigningKeys;
  /** Where a sent report goes (HIS, clinical side): a pluggable adapter. */
  outbound: ReportOutbound;
  /**
   * Where report PDFs find their images (the app's storage: the data directory or the bucket every node shares), the
   * address their QR code's verification link starts with, and the root of the FHIR identifier systems
   * (outbound-config.ts systemBaseOf).
   */
  output: { storage: Storage; publicUrl: string; font?: ReportFontConfig; fhirSystemBase: string };
}

export { scopeOf };
export type Req = FastifyRequest;
