import { Inject, Injectable, Logger } from '@nestjs/common';
import { Answer, answerQuestion, describeImages, GenerationMode, ImageContext, LlmClient, OpenAiCompatibleClient, SourceChunk } from '@sift/llm';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';

/**
 * include_answer and include_image_descriptions: the configured OpenAI-compatible model when LLM_BASE_URL is
 * set, else (or when it fails) the extractive fallback. The mode that ran is returned for the request log.
 */
@Injectable()
export class SearchAnswerService {
  private readonly logger = new Logger('search');
  private readonly client?: LlmClient;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayAppConfig) {
    if (config.LLM_BASE_URL) {
      this.client = new OpenAiCompatibleClient({
        baseUrl: config.LLM_BASE_URL,
        model: config.LLM_MODEL,
        apiKey: config.LLM_API_KEY || undefined,
        policy: egressPolicyFromConfig(config),
      });
    }
  }

  async answer(query: string, chunks: SourceChunk[], depth: 'basic' | 'advanced', deadlineMs: number): Promise<Answer> {
    const answer = await answerQuestion(query, chunks, depth, { client: this.client, deadlineMs });
    if (answer.fallbackReason) this.logger.warn(`answer model failed, answered extractively: ${answer.fallbackReason}`);
    this.logger.log(`answer mode=${answer.mode} sources=${answer.sources.length}`);
    return answer;
  }

  async describe(images: ImageContext[], query: string, deadlineMs: number): Promise<{ descriptions: Map<string, string>; mode: GenerationMode }> {
    const described = await describeImages(images, query, { client: this.client, deadlineMs });
    return { descriptions: new Map(described.descriptions.map((entry) => [entry.url, entry.description])), mode: described.mode };
  }
}
