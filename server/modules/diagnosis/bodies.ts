import { Type } from '@sinclair/typebox';

const Text = (max: number) => Type.String({ maxLength: max });
export const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const Version = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const ReportTextProps = {
  gross_description: Type.Optional(Text(20_000)),
  microscopic: Type.Optional(Text(20_000)),
  diagnosis: Type.Optional(Text(20_000)),
  advice: Type.Optional(Text(10_000)),
  postscript: Type.Optional(Text(10_000)),
  images: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 24 })),
};

export const CreateBody = Type.Object({
  report_type: Type.Union([Type.Literal(1), Type.Literal(2)]),
  supplement_type: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])),
  ...ReportTextProps,
}, { additionalProperties: false });

export const SaveBody = Type.Object({ version: Version, ...ReportTextProps }, { additionalProperties: false });

export const ActionParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  action: Type.Union(['submit', 'return', 'approve', 'sign', 'recall', 'print', 'send', 'supplement_submit', 'accept', 'reject'].map((a) => Type.Literal(a))),
});

export const ActionBody = Type.Object({
  version: Version,
  reason: Type.Optional(Type.String({ maxLength: 1000 })),
  issue: Type.Optional(Type.Union([Type.Literal('now'), Type.Literal('later')])),
}, { additionalProperties: false });

export const DelayBody = Type.Object({ version: Version, reason: Type.Optional(Type.String({ maxLength: 1000 })), approve: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

export const FlagsBody = Type.Object({
  version: Version,
  follow_up: Type.Optional(Type.Union([Type.Literal('following'), Type.Literal('ended'), Type.Null()])),
  evaluation: Type.Optional(Type.Union([Type.Literal('unassessed'), Type.Literal('qualified'), Type.Literal('unqualified')])),
}, { additionalProperties: false });

export const UrgentBody = Type.Object({ urgent: Type.Boolean() }, { additionalProperties: false });

export const TemplateBody = Type.Object({
  parent_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  name: Type.String({ minLength: 1, maxLength: 128 }),
  gross_description: Type.Optional(Text(20_000)),
  microscopic: Type.Optional(Text(20_000)),
  diagnosis: Type.Optional(Text(20_000)),
  advice: Type.Optional(Text(10_000)),
  rank: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
}, { additionalProperties: false });

export const PhraseBody = Type.Object({
  category: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  text: Type.String({ minLength: 1, maxLength: 1000 }),
  rank: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
}, { additionalProperties: false });

/**
 * A batch print: the reports (`ids`), or the released reports of cases (`case_ids`, a list page's selected cases),
 * in the order given, at most 100 at once (each PDF is held while they are joined).
 */
const PrintIds = Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { minItems: 1, maxItems: 100, uniqueItems: true });
export const PrintBatchBody = Type.Union([
  Type.Object({ ids: PrintIds }, { additionalProperties: false }),
  Type.Object({ case_ids: PrintIds }, { additionalProperties: false }),
]);
