/** API words of the price list and income statistics (issue 16), in both languages. */
export const priceMessages = {
  'price.bad_price': { 'zh-CN': '{{field}}：单价应在 0 至 1000000 元之间，最多两位小数', 'en-US': '{{field}}: a price is 0 to 1,000,000 yuan with at most two decimals' },
  'price.bad_item': { 'zh-CN': '{{field}}：不是可收费的项目', 'en-US': '{{field}}: not a chargeable item' },
  'stat.series.income_case': { 'zh-CN': '病例收入（元）', 'en-US': 'Case fees (yuan)' },
  'stat.series.income_special': { 'zh-CN': '特检收入（元）', 'en-US': 'Special examinations (yuan)' },
  'stat.series.income_additional': { 'zh-CN': '技术医嘱收入（元）', 'en-US': 'Additional requests (yuan)' },
  'stat.series.income_total': { 'zh-CN': '总收入（元）', 'en-US': 'Total income (yuan)' },
} as const;
