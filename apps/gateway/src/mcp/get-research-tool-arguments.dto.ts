import { RESEARCH_TOOL_TIMEOUT, ResearchToolMaxTokensField, ResearchToolRequestIdField, ResearchToolTimeoutField } from './research-tool-options.dto';

/**
 * tavily_get_research's arguments, as Tavily's remote MCP server names them: the task to wait for, and how long
 * to wait (the same bounds as tavily_research's `timeout`).
 */
export class GetResearchToolArgumentsDto {
  @ResearchToolRequestIdField('The request_id tavily_research (or POST /research) returned: the task whose report to wait for and return.', { optional: false })
  request_id!: string;

  @ResearchToolTimeoutField('the call returns its status: call again to keep waiting. 0 returns the current state at once.')
  timeout: number = RESEARCH_TOOL_TIMEOUT.defaultSeconds;

  @ResearchToolMaxTokensField()
  max_tokens?: number;
}
