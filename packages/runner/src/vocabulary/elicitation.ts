import { CodedError } from "@x/llm-types";
import { z } from "zod/v4";

const nonNegative = z.number().int().nonnegative();
const annotations = { title: z.string().optional(), description: z.string().optional() };
const TitledConstSchema = z.strictObject({ const: z.string(), title: z.string() });

const StringFieldSchema = z.strictObject({
  type: z.literal("string"),
  ...annotations,
  minLength: nonNegative.optional(),
  maxLength: nonNegative.optional(),
  format: z.enum(["email", "uri", "date", "date-time"]).optional(),
  default: z.string().optional(),
});
const EnumFieldSchema = z.strictObject({
  type: z.literal("string"),
  ...annotations,
  enum: z.array(z.string()).min(1),
  enumNames: z.array(z.string()).optional(),
  default: z.string().optional(),
});
const TitledEnumFieldSchema = z.strictObject({
  type: z.literal("string"),
  ...annotations,
  oneOf: z.array(TitledConstSchema).min(1),
  default: z.string().optional(),
});
const NumberFieldSchema = z.strictObject({
  type: z.enum(["number", "integer"]),
  ...annotations,
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
const BooleanFieldSchema = z.strictObject({
  type: z.literal("boolean"),
  ...annotations,
  default: z.boolean().optional(),
});
const MultiSelectFieldSchema = z.strictObject({
  type: z.literal("array"),
  ...annotations,
  minItems: nonNegative.optional(),
  maxItems: nonNegative.optional(),
  items: z.union([
    z.strictObject({ type: z.literal("string"), enum: z.array(z.string()).min(1) }),
    z.strictObject({ anyOf: z.array(TitledConstSchema).min(1) }),
  ]),
  default: z.array(z.string()).optional(),
});
const FieldSchema = z.union([
  StringFieldSchema,
  EnumFieldSchema,
  TitledEnumFieldSchema,
  NumberFieldSchema,
  BooleanFieldSchema,
  MultiSelectFieldSchema,
]);
type Field = z.infer<typeof FieldSchema>;

/**
 * The form a person is asked to fill in: a flat JSON Schema object of strings (with a format, or a
 * choice), numbers, booleans and multi-choices — the subset MCP elicitation allows, so a form is
 * something any approval UI can render. A keyword outside it is refused, never silently ignored.
 */
export const ElicitationFormSchema = z.strictObject({
  $schema: z.string().optional(),
  ...annotations,
  type: z.literal("object"),
  properties: z.record(z.string(), FieldSchema),
  required: z.array(z.string()).optional(),
});
export type ElicitationForm = z.infer<typeof ElicitationFormSchema>;

/** A filled-in form: each answered field's value. */
export type ElicitationContent = Record<string, string | number | boolean | string[]>;

const ContentSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]));

/** What a tool asks a person, mid-call: `ctx.elicit(request)`. */
export const ElicitationRequestSchema = z.strictObject({
  /** Shown to the person as the tool's words. */
  message: z.string().min(1),
  schema: ElicitationFormSchema,
});
export interface ElicitationRequest {
  message: string;
  schema: ElicitationForm;
}

/** What `ctx.elicit` returns: the person's answer (matching the form), or their refusal. */
export type ElicitationResult = { action: "accept"; content: ElicitationContent } | { action: "decline" };

export const ElicitationResultSchema = z.union([
  z.strictObject({ action: z.literal("accept"), content: ContentSchema }),
  z.strictObject({ action: z.literal("decline") }),
]);

/**
 * A person's answer to an elicitation: from a live approver, or handed to `resume` for a run that
 * parked on one. `answer` is checked against the form before anything runs.
 */
export const ElicitationDecisionSchema = z.union([
  z.strictObject({ decision: z.literal("answer"), answer: ContentSchema }),
  z.strictObject({ decision: z.literal("decline"), reason: z.string().optional() }),
]);
export type ElicitationDecision =
  { decision: "answer"; answer: ElicitationContent } | { decision: "decline"; reason?: string };

/** An elicitation a parked call waits on, with the answers its earlier questions got (replayed on resume, in order). */
export const PendingElicitationSchema = z.strictObject({
  message: z.string().min(1),
  schema: ElicitationFormSchema,
  answered: z.array(z.strictObject({ ...ElicitationRequestSchema.shape, result: ElicitationResultSchema })).optional(),
});
export type PendingElicitation = z.infer<typeof PendingElicitationSchema>;

export const ELICITATION_ERROR_CODES = [
  "request_invalid",
  "answer_invalid",
  "decision_mismatch",
  "question_changed",
  "parked",
] as const;
export type ElicitationErrorCode = (typeof ELICITATION_ERROR_CODES)[number];

/**
 * An elicitation that cannot go on: a request outside the form subset, an answer off its form, a
 * decision that does not fit the park, a re-run call asking another question than the one answered,
 * or (`parked`) the run parked on the question — the call is stopped and re-run on resume.
 */
export class ElicitationError extends CodedError<ElicitationErrorCode> {
  override readonly name = "ElicitationError";
  constructor(code: ElicitationErrorCode, message: string) {
    super(code, message);
  }
}

function choices(field: Field): [string, ...string[]] | undefined {
  if ("enum" in field) return field.enum as [string, ...string[]];
  if ("oneOf" in field) return field.oneOf.map((option) => option.const) as [string, ...string[]];
  return undefined;
}

function fieldValidator(field: Field): z.ZodType {
  switch (field.type) {
    case "boolean":
      return z.boolean();
    case "number":
    case "integer": {
      let number = field.type === "integer" ? z.number().int() : z.number();
      if (field.minimum !== undefined) number = number.min(field.minimum);
      if (field.maximum !== undefined) number = number.max(field.maximum);
      return number;
    }
    case "array": {
      const items = "enum" in field.items ? field.items.enum : field.items.anyOf.map((option) => option.const);
      let list = z.array(z.enum(items as [string, ...string[]]));
      if (field.minItems !== undefined) list = list.min(field.minItems);
      if (field.maxItems !== undefined) list = list.max(field.maxItems);
      return list;
    }
    case "string": {
      const options = choices(field);
      if (options) return z.enum(options);
      const plain = field as z.infer<typeof StringFieldSchema>;
      const formats = {
        email: z.email(),
        uri: z.url(),
        date: z.iso.date(),
        "date-time": z.iso.datetime({ offset: true }),
      };
      let text = plain.format ? formats[plain.format] : z.string();
      if (plain.minLength !== undefined) text = text.min(plain.minLength);
      if (plain.maxLength !== undefined) text = text.max(plain.maxLength);
      return text;
    }
  }
}

/**
 * Checks an answer against its form: every required field present, each value of its field's type
 * and bounds, no field the form does not have. A field left out gets the form's default. Throws
 * `ElicitationError` `answer_invalid`, naming the fields.
 */
export function checkAnswer(form: ElicitationForm, answer: unknown): ElicitationContent {
  const required = new Set(form.required ?? []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(form.properties)) {
    const value = fieldValidator(field);
    shape[name] =
      field.default !== undefined ? value.default(field.default) : required.has(name) ? value : value.optional();
  }
  const parsed = z.strictObject(shape).safeParse(answer);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(form)"}: ${issue.message}`);
    throw new ElicitationError("answer_invalid", `the answer does not fit the form: ${issues.join("; ")}`);
  }
  return parsed.data as ElicitationContent;
}

/** Reads a tool's (or a server's) request; one outside the form subset is `request_invalid`. */
export function checkRequest(request: unknown): ElicitationRequest {
  const parsed = ElicitationRequestSchema.safeParse(request);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(request)"}: ${issue.message}`);
    throw new ElicitationError(
      "request_invalid",
      `the elicitation is not a form a person can fill in: ${issues.join("; ")}`,
    );
  }
  for (const name of parsed.data.schema.required ?? []) {
    if (!(name in parsed.data.schema.properties))
      throw new ElicitationError("request_invalid", `the form requires "${name}", which it does not have`);
  }
  return parsed.data;
}
