import { adversarialCutCases } from "./adversarial-cuts";
import { adversarialTextCases } from "./adversarial-text";
import type { AdversarialCase } from "./corpus-case";

/**
 * The adversarial reply corpus: hostile, confused and cut classifier replies by attack category,
 * each with the ruling the gate must reach. A host that wraps or replaces a brain runs it through
 * its own decider (see the package's tests) to check that nothing but a clean no allows.
 */
export const ADVERSARIAL_CORPUS: readonly AdversarialCase[] = Object.freeze([
  ...adversarialTextCases(),
  ...adversarialCutCases(),
]);
