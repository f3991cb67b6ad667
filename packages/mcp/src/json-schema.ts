import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { z } from "zod/v4";

// ajv-formats ships CommonJS with a default export; under ESM interop the function can sit one level down.
export const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv | Ajv2020) => void;

/** The JSON Schema drafts a server's schema may declare; anything else is read as draft-07, MCP's default. */
const DRAFT_2020 = /draft\/2020-12/;

/**
 * Compiles the JSON Schemas one server sends. One compiler per server: a schema's `$id` is the
 * server's own business and must not collide with another server's.
 */
export interface SchemaCompiler {
  /** A zod schema whose check is the JSON Schema's: a runner tool's `input` validates with it. */
  input(schema: Record<string, unknown>): z.ZodType;
}

function pathOf(error: ErrorObject): Array<string | number> {
  const parts = error.instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
  const path: Array<string | number> = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  // A missing property is reported at its parent; the issue belongs to the property itself.
  if (error.keyword === "required" && typeof error.params.missingProperty === "string")
    path.push(error.params.missingProperty);
  return path;
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === "required") return "required";
  if (error.keyword === "additionalProperties") return `unknown property "${String(error.params.additionalProperty)}"`;
  if (error.keyword === "enum" && Array.isArray(error.params.allowedValues))
    return `must be one of ${error.params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(", ")}`;
  return error.message ?? error.keyword;
}

/** A zod schema that always fails with `message`: a tool whose schema cannot be read is never run. */
function refusing(message: string): z.ZodType {
  return z.unknown().superRefine((_value, ctx) => ctx.addIssue({ code: "custom", message }));
}

function fromValidator(validate: ValidateFunction): z.ZodType {
  return z.unknown().superRefine((value, ctx) => {
    if (validate(value)) return;
    for (const error of validate.errors ?? [])
      ctx.addIssue({ code: "custom", message: messageOf(error), path: pathOf(error) });
  });
}

/** A compiler on ajv (all errors, formats checked, unknown keywords ignored as the spec allows). */
export function createSchemaCompiler(): SchemaCompiler {
  const options = { strict: false, allErrors: true, validateFormats: true } as const;
  let draft07: Ajv | undefined;
  let draft2020: Ajv2020 | undefined;
  const compilerFor = (schema: Record<string, unknown>): Ajv | Ajv2020 => {
    if (typeof schema.$schema === "string" && DRAFT_2020.test(schema.$schema)) {
      if (!draft2020) addFormats((draft2020 = new Ajv2020(options)));
      return draft2020;
    }
    if (!draft07) addFormats((draft07 = new Ajv(options)));
    return draft07;
  };
  return {
    input(schema) {
      // A relisted tool (tools/list_changed) brings its `$id` again; ajv refuses a second schema
      // under one id, so the top-level id is dropped — nothing outside the schema refers to it.
      const { $id: _id, ...rest } = schema;
      try {
        return fromValidator(compilerFor(rest).compile(rest));
      } catch (error) {
        return refusing(
          `the server's input schema for this tool is not valid JSON Schema (${(error as Error).message})`,
        );
      }
    },
  };
}
