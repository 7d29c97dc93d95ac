import { AppError } from '../../http/errors.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';
import { DEFAULT_RULE, ruleProblems } from '../../../src/core/pathologyNumber.js';

/**
 * SettingPathological writes numbering rules through the generic resource: the same checks as
 * PUT /api/pathology/numbering-rules (a regex that compiles, a known connector and middle), on the fields sent.
 */
export const numberingRuleHooks: ResourceHooks = {
  async beforeWrite(data) {
    const sent = Object.keys(data);
    const problems = Object.entries(ruleProblems({ ...DEFAULT_RULE, regex: null, ...data } as Parameters<typeof ruleProblems>[0]))
      .filter(([f]) => sent.includes(f));
    if (problems.length) {
      throw new AppError(422, 'lab.numbering_rule_invalid', {}, Object.fromEntries(problems.map(([f, reason]) => [f, [{ key: 'error.field_invalid', params: { field: f, reason } }]])));
    }
    return {};
  },
};
