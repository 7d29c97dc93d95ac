import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyBounded, RULE_LIMITS } from '../core/ruleBudget';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../i18n/bundles';
import { ruleCostText } from './ruleCostText';

const t: Record<string, TFunction> = {};
beforeAll(async () => {
  for (const lng of ['en-US', 'zh-CN']) {
    const i18n = i18next.createInstance();
    await i18n.init({ resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } }, lng, interpolation: { escapeValue: false } });
    t[lng] = i18n.t;
  }
});

const stopped = (logic: unknown) => {
  try {
    applyBounded(logic, {});
  } catch (e) {
    return e;
  }
  throw new Error('not stopped');
};
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('a rule stopped at its work limit, in the browser’s words', () => {
  it('names the limit in either language; other errors are not its to word', () => {
    const nested = stopped({ map: [range(300), { map: [range(300), 1] }] });
    expect(ruleCostText(t['en-US']!, nested)).toBe(`A rule configured for this hospital needed more work than allowed (more than ${RULE_LIMITS.operations} operations) and was stopped. Other pages are not affected; an administrator can check or roll back this page's configuration or the hospital's rule sets.`);
    const doubled = stopped({ reduce: [range(40), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [0]] });
    expect(ruleCostText(t['zh-CN']!, doubled)).toBe(`本院配置的一条规则计算量超出上限（生成的列表长度超过 ${RULE_LIMITS.items}），已中止。其他页面不受影响；请管理员检查或回滚该页面的配置或本院的规则集。`);
    expect(ruleCostText(t['en-US']!, new Error('other'))).toBeUndefined();
  });
});
