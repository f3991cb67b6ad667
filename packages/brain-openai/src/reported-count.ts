/**
 * A count the provider reported, zero included; undefined only when it sent none. `Usage.reasoning`
 * is set "when the provider reports it", so a reported 0 stays 0 (`|| undefined` once made it unsaid).
 */
export const reportedCount = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
