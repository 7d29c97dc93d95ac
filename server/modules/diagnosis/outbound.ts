import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Db } from '../../db/connect.js';
import { emitEvent } from '../../events/bus.js';
import { enqueueJob } from '../jobs/queries.js';
import type { BundleInput, TransactionBundle } from './fhir-bundle.js';
import type { Hl7Config } from '../hl7/config.js';
import { hl7Outbound } from '../hl7/outbound.js';
import { FHIR_DEFAULTS, type FhirOutboundConfig, type OutboundKind } from './outbound-config.js';
import { REPORT_OUTBOUND_JOB, type OutboundPayload } from './outbound-job.js';
import { deliveryKey, liveDelivery } from './outbound-queries.js';

/** Who sent which report: kept with a queued delivery and logged with its outcome. */
export interface OutboundMeta {
  reportId: number;
  hospitalId: number;
  userId: number | null;
  username: string | null;
}

/** A delivery that could not be made: the send is refused (502) and not recorded. */
export class DeliveryFailed extends Error {}

/**
 * Where a sent report goes (issues 15, 30): the HIS and the clinical side get an HL7 FHIR R4 transaction Bundle
 * (fhir-bundle.ts) with the signed PDF. The adapter is chosen by REPORT_OUTBOUND: `none` (default: the send is
 * recorded, the clinical side reads it through the API), `outbox` (the Bundle written as JSON under
 * <data>/outbox/fhir/, for an interface engine to pick up), `fhir` (posted to FHIR_BASE_URL by the job queue,
 * outbound-job.ts) or `hl7` (an HL7 v2 ORU^R01 to the HIS's MLLP listener by the job queue, modules/hl7). `deliver` runs inside the send's transaction, after its version check: it stands or falls with
 * the send (a queued delivery is never lost, nor made for a send that was refused). A hospital's own adapter
 * implements the same interface.
 */
export interface ReportOutbound {
  readonly name: OutboundKind;
  /** `facts`: what the Bundle was built from, for an adapter that writes another format (HL7 v2: hl7/outbound.ts). */
  deliver(trx: Kysely<Database>, bundle: TransactionBundle, meta: OutboundMeta, facts: BundleInput): Promise<void>;
  /** After the send committed: a queued delivery starts now in a runner on this handle. */
  committed?(db: Db): void;
}

export function reportOutbound(kind: OutboundKind | undefined, dataDir: string, fhir?: FhirOutboundConfig, hl7?: Hl7Config): ReportOutbound {
  if (kind === 'outbox') return outbox(path.join(dataDir, 'outbox', 'fhir'));
  if (kind === 'hl7') {
    if (!hl7) throw new Error('REPORT_OUTBOUND=hl7 needs the HL7 settings (HL7_HIS_HOST, HL7_HIS_PORT)');
    return hl7Outbound(hl7);
  }
  if (kind === 'fhir') return fhirQueue(fhir?.maxAttempts ?? FHIR_DEFAULTS.maxAttempts);
  return { name: 'none', deliver: async () => undefined };
}

function outbox(dir: string): ReportOutbound {
  return {
    name: 'outbox',
    async deliver(_trx, bundle, meta) {
      try {
        await fs.mkdir(dir, { recursive: true });
        // Named for the report and the moment; written whole, then renamed, so a reader never sees half a file.
        const file = path.join(dir, `dsms-report-${meta.reportId}-${Date.now()}.json`);
        await fs.writeFile(`${file}.partial`, JSON.stringify(bundle), 'utf8');
        await fs.rename(`${file}.partial`, file);
      } catch (err) {
        throw new DeliveryFailed(`outbox: ${(err as Error).message}`, { cause: err });
      }
    },
  };
}

function fhirQueue(maxAttempts: number): ReportOutbound {
  return {
    name: 'fhir',
    async deliver(trx, bundle, meta) {
      // A delivery of this report still waiting posts the same signed report: the send joins it. Looked up first, not
      // left to the dedupe index, whose refusal would abort the send's transaction on PostgreSQL (two sends of one
      // version cannot both get here: the report's version check refuses the second).
      if (await liveDelivery(trx, deliveryKey(meta.reportId))) return;
      const payload: OutboundPayload = { report_id: meta.reportId, hospital_id: meta.hospitalId, user_id: meta.userId, username: meta.username, bundle };
      // No hospital_id on the row: the dashboard counts a hospital's jobs as its uploads (statistics/dashboard.ts); the
      // hospital is in the payload and on the operation log line.
      await enqueueJob(trx, { type: REPORT_OUTBOUND_JOB, payload, maxAttempts, dedupeKey: deliveryKey(meta.reportId) });
    },
    committed: (db) => emitEvent(db, 'jobs.queued', { type: REPORT_OUTBOUND_JOB }),
  };
}
