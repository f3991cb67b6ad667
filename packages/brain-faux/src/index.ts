export { createFauxBrain, type FauxBrain, type FauxBrainOptions, type FauxCall } from "./brain";
export {
  type FauxBlock,
  fauxDelay,
  fauxDrop,
  fauxEmptyAtCap,
  type FauxEnding,
  fauxError,
  fauxLengthCut,
  fauxLoop,
  fauxRawToolCall,
  type FauxRequestContext,
  type FauxResponder,
  type FauxResponse,
  type FauxScriptItem,
  fauxStall,
  fauxText,
  fauxThinking,
  fauxToolCall,
} from "./response";
export { fauxModel, type FauxModelOverrides } from "./model";
