import { issuesLine } from "@x/llm-types";
import { EvalDatasetSchema, type EvalDataset } from "./case";
import { EvalError } from "./errors";
import { RecordingSchema, type Recording } from "./recording";

/** Reads a dataset file's parsed JSON; a bad one throws `EvalError` `eval.dataset_invalid`, naming the problem. */
export function parseDataset(json: unknown): EvalDataset {
  const parsed = EvalDatasetSchema.safeParse(json);
  if (!parsed.success)
    throw new EvalError("eval.dataset_invalid", `the dataset is invalid: ${issuesLine(parsed.error)}`);
  return parsed.data;
}

/** Reads a recording's parsed JSON; a bad one throws `EvalError` `eval.recording_invalid`. */
export function parseRecording(json: unknown): Recording {
  const parsed = RecordingSchema.safeParse(json);
  if (!parsed.success)
    throw new EvalError("eval.recording_invalid", `the recording is invalid: ${issuesLine(parsed.error)}`);
  return parsed.data;
}
