import type { Db } from '../../db/connect.js';
import { SigningKeys } from '../../http/signing-keys.js';
import type { TypedApp } from '../../http/types.js';
import type { RuleStore } from '../schemas/store.js';
import type { Storage } from '../../storage/storage.js';
import type { DiagnosisDeps } from './deps.js';
import type { ReportFontConfig } from './pdf.js';
import { reportOutbound } from './outbound.js';
import { SEAL_LIFETIME_MS } from './seal.js';
import type { Hl7Config } from '../hl7/config.js';
import { systemBaseOf, type FhirOutboundConfig, type OutboundKind } from './outbound-config.js';
import { deliveryRoutes } from './delivery-routes.js';
import { diagnosisRoutes } from './routes.js';
import { workflowConfigRoutes } from './config-workflow.js';
import { outputRoutes } from './output-routes.js';
import { documentRoutes } from './document-routes.js';
import { verifyRoute } from './verify-route.js';
import { reportConfigRoutes } from './config-report.js';
import { templateRoutes } from './template-routes.js';


/** The diagnosis and report module (issue 15), wired from the app in one call. */
export function diagnosisModule(app: TypedApp, opts: {
  db: Db; systemDb: Db; rules: RuleStore; dataDir: string; storage: Storage; publicUrl: string; outbound?: OutboundKind; fhir?: FhirOutboundConfig; hl7?: Hl7Config; font?: ReportFontConfig;
}): DiagnosisDeps {
  const deps: DiagnosisDeps = {
    db: opts.db, systemDb: opts.systemDb, rules: opts.rules, rulesFor: (h) => opts.rules.resolverFor(h),
    verifyKeys: new SigningKeys(opts.db, 'report_verify', SEAL_LIFETIME_MS),
    outbound: reportOutbound(opts.outbound, opts.dataDir, opts.fhir, opts.hl7),
    output: { storage: opts.storage, publicUrl: opts.publicUrl, font: opts.font, fhirSystemBase: systemBaseOf(opts.fhir, opts.publicUrl) },
  };
  diagnosisRoutes(app, deps);
  workflowConfigRoutes(app, deps);
  reportConfigRoutes(app, deps);
  templateRoutes(app, deps);
  outputRoutes(app, deps);
  documentRoutes(app, deps);
  deliveryRoutes(app, deps);
  verifyRoute(app, deps);
  return deps;
}
