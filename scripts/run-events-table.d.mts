/** One RunEvent variant: its `type`, its other fields as `name?: type`, the doc line above it. */
export interface RunEventRow {
  type: string;
  fields: string[];
  doc: string;
}
export const EVENTS_FILE: string;
export const README_FILE: string;
export const START: string;
export const END: string;
export function runEventRows(source?: string): RunEventRow[];
export function runEventsTable(rows?: RunEventRow[]): string;
export function withTable(readme: string, table?: string): string;
