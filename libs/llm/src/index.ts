export { LlmError, type ChatMessage, type CompletionOptions, type LlmClient } from './llm-client';
export { OpenAiCompatibleClient, type OpenAiCompatibleOptions } from './openai-compatible.client';
export type { AnswerSource, GenerationMode, SourceChunk } from './source-chunk';
export { answerQuestion, answerPrompt, type Answer, type AnswerOptions } from './answer-question';
export { extractiveAnswer, type AnswerDepth } from './extractive-answer';
export { describeImages, describeFromText, type DescribeOptions, type ImageContext, type ImageDescription, type ImageDescriptions } from './describe-images';
export { SOURCES_ARE_DATA, sourceBlock } from './untrusted-sources';
export { plainText, quotableSentences, SentenceRanker, tokenOverlap, type RankedSentence } from './sentences';
