import { Type } from '@sinclair/typebox';
import { ok } from '../../http/envelope.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { CLINICAL_REACHES, clinicalReachMode } from '../../../src/core/clinicalReach.js';
import { hesitationMinutes, workflowLevels } from '../../../src/core/reportWorkflow.js';
import type { DiagnosisDeps } from './deps.js';
import { okResponse } from '../../http/responses.js';

const tags = ['config'];

/**
 * Spec §7 `GET config/workflow/lists` and `PATCH config/workflow/update`: the working hospital's report workflow,
 * which is its `workflow` rule set (schemas/rules/workflow.json, versioned per hospital like every rule set):
 * the sign-off levels (first and sign always; audit optional), the hesitation period of a delayed issue and which
 * cases' reports the clinical side reads (`clinical_reach`, src/core/clinicalReach.ts).
 */
export function workflowConfigRoutes(app: TypedApp, deps: DiagnosisDeps): void {
  const current = async (hospitalId: number) => {
    const resolve = await deps.rulesFor(hospitalId);
    const levels = workflowLevels(resolve);
    return {
      levels, audit: levels.includes('audit'), hesitation_minutes: hesitationMinutes(resolve), clinical_reach: clinicalReachMode(resolve), version: (await deps.rules.layered('workflow', hospitalId)).version,
    };
  };
  app.get('/api/config/workflow/lists', { config: { access: 'user', audit: false }, schema: { tags, response: okResponse() } }, async (r) => ok(await current(workingHospital(r))));
  app.patch('/api/config/workflow/update', {
    config: { access: { permission: 'system_setting' } },
    schema: {
      tags,
      body: Type.Object({
        audit: Type.Boolean({ description: 'false: reports go from first diagnosis straight to signing' }),
        hesitation_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 * 24 * 60 })),
        clinical_reach: Type.Optional(Type.Union(CLINICAL_REACHES.map((m) => Type.Literal(m)), { description: 'own, department or hospital (clinical side)' })),
      }, { additionalProperties: false }), response: okResponse()
    },
  }, async (r) => {
    const hospitalId = workingHospital(r);
    const rules: Record<string, unknown> = { levels: r.body.audit ? ['first', 'audit', 'sign'] : ['first', 'sign'] };
    if (r.body.hesitation_minutes !== undefined) rules['hesitation-minutes'] = r.body.hesitation_minutes;
    // The saved override replaces the last one: the reach stays what it was unless it is given.
    rules['clinical-reach'] = r.body.clinical_reach ?? clinicalReachMode(await deps.rulesFor(hospitalId));
    await deps.rules.save('workflow', hospitalId, { rules }, r.auth!.name, 'config/workflow/update');
    return ok(await current(hospitalId));
  });
}
