import { z } from "zod/v4";
import type * as z4 from "zod/v4/core";

/**
 * `z.discriminatedUnion(key, options)`, typed as the `z.ZodUnion` it extends. The published declarations
 * spell out the type of every exported schema, and `ZodDiscriminatedUnion` takes one type parameter in
 * zod 3.25's `zod/v4` and zod 4.0 but two since 4.1: typed as it is, our `.d.ts` would not compile for a
 * user on the older ones. `ZodUnion` reads the same on all, and parsing still goes by the key.
 */
export function taggedUnion<const Options extends readonly [z4.$ZodTypeDiscriminable, ...z4.$ZodTypeDiscriminable[]]>(
  key: string,
  options: Options,
): z.ZodUnion<Options> {
  // eslint-disable-next-line no-restricted-properties -- the one place that calls it
  return z.discriminatedUnion(key, options);
}
