export { ANTHROPIC_MODELS, DEEPSEEK_MODELS, GOOGLE_MODELS, OPENAI_MODELS, SOURCE } from "./models-dev";
export { type PresetData } from "./preset-data";
export {
  anthropic,
  type AnthropicModelId,
  deepseek,
  type DeepSeekModelId,
  google,
  type GoogleModelId,
  openai,
  type OpenAIModelId,
  type PresetOverrides,
} from "./presets";
