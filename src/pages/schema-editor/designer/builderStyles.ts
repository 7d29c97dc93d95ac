import { makeStyles, tokens } from '@fluentui/react-components';

/** react-querybuilder's plain controls in Fluent's colours, shared by every builder of the designer. */
export const useBuilderStyles = makeStyles({
  root: {
    '& .queryBuilder': { fontSize: tokens.fontSizeBase200 },
    '& .ruleGroup': { backgroundColor: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusMedium },
    // A condition wraps inside a narrow column (a rule case beside its answer) instead of running under it.
    '& .rule, & .ruleGroup-header': { flexWrap: 'wrap' },
    '& .rule select': { maxWidth: '100%' },
    '& select, & input': { fontSize: tokens.fontSizeBase200, padding: '2px 4px', borderRadius: tokens.borderRadiusSmall, border: `1px solid ${tokens.colorNeutralStroke1}` },
    '& button': { fontSize: tokens.fontSizeBase200, borderRadius: tokens.borderRadiusSmall, border: `1px solid ${tokens.colorNeutralStroke1}`, backgroundColor: tokens.colorNeutralBackground1, cursor: 'pointer' },
  },
});
