import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ResearchResponseDto } from '@sift/api-contracts';

/**
 * A research task as the model reads it, the GET /research/{request_id} answer being the structured content: the
 * report and its numbered sources once completed; the task's error (a tool error) once failed; and while it runs,
 * how to come back for it.
 */
export function researchResultOf(task: ResearchResponseDto): CallToolResult {
  const structuredContent = task as unknown as Record<string, unknown>;
  switch (task.status) {
    case 'completed':
      return { content: [{ type: 'text', text: reportText(task) }], structuredContent };
    case 'failed':
      return { isError: true, content: [{ type: 'text', text: `Research task ${task.request_id} failed: ${task.error}` }], structuredContent };
    case 'pending':
    case 'in_progress':
      return { content: [{ type: 'text', text: stillRunningText(task) }], structuredContent };
  }
}

function reportText(task: ResearchResponseDto): string {
  // With output_schema the report is an object; the model reads it as JSON.
  const report = typeof task.content === 'string' ? task.content : JSON.stringify(task.content);
  const sources = (task.sources ?? []).map((source, index) => `${index + 1}. ${source.title}: ${source.url}`);
  return [report, '', 'Sources:', ...sources].join('\n');
}

function stillRunningText(task: ResearchResponseDto): string {
  return (
    `The research task is still running (status ${task.status}, request_id ${task.request_id}). ` +
    `Call tavily_get_research with {"request_id": "${task.request_id}"} (or tavily_research again with it) to keep waiting for the report, ` +
    `or fetch it later with GET /research/${task.request_id}.`
  );
}
