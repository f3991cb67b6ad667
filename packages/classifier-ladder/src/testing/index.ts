export { ADVERSARIAL_CORPUS } from "./adversarial-corpus";
export {
  ADVERSARIAL_CATEGORIES,
  type AdversarialCase,
  type AdversarialCategory,
  type CorpusRuling,
} from "./corpus-case";
export { replayBrain, replyMessage, type ReplayBrain, type ReplyShape } from "./replay-brain";
