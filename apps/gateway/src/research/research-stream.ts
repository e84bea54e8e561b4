import { Injectable, Logger } from '@nestjs/common';
import type { ResearchEvent } from '@sift/queue-contracts';
import { isFinished, ResearchEvents, type ResearchTask } from '@sift/research';
import type { Response } from 'express';
import type { RequestContext } from '../caller/request-context';
import { fitReport, StreamedTextBudget } from '../http/token-budget';
import { ResearchService } from './research.service';

/** One server-sent event: `event:` only for done and error, as Tavily sends them. */
function frame(data: string, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${data}\n\n`;
}

/** The delta of a chat.completion.chunk for each event the worker publishes (done and error are not chunks). */
function deltaOf(event: Exclude<ResearchEvent, { type: 'done' } | { type: 'error' }>): Record<string, unknown> {
  switch (event.type) {
    case 'tool_call':
      return {
        tool_calls: {
          type: 'tool_call',
          tool_call: [{ name: event.name, id: event.id, arguments: event.arguments, ...(event.queries ? { queries: event.queries } : {}) }],
        },
      };
    case 'tool_response':
      return { tool_calls: { type: 'tool_response', tool_response: [{ name: event.name, id: event.id, arguments: event.arguments, sources: event.sources }] } };
    case 'content':
      return { content: event.content };
    case 'sources':
      return { sources: event.sources };
  }
}

/**
 * `stream: true`: the task's events as server-sent events in Tavily's format (OpenAI chat.completion.chunk frames,
 * then `event: done`, or `event: error`). Every frame's id is the task's request id, so a client can also poll
 * GET /research/{id}. A client that disconnects stops only its own reading: the task runs to its end and is
 * stored, and a later GET (or a new stream of the same task's events, kept an hour) reads it.
 */
@Injectable()
export class ResearchStream {
  private readonly logger = new Logger('research');

  constructor(
    private readonly events: ResearchEvents,
    private readonly research: ResearchService,
  ) {}

  async send(context: RequestContext, task: { requestId: string; model: string; maxTokens?: number }, response: Response): Promise<void> {
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-cache');
    response.setHeader('Connection', 'keep-alive');
    // Proxies (nginx) would otherwise buffer the events until the task ends.
    response.setHeader('X-Accel-Buffering', 'no');
    response.flushHeaders();
    const disconnected = new AbortController();
    response.on('close', () => disconnected.abort());
    let model = task.model;
    const chunk = (delta: Record<string, unknown>) =>
      frame(JSON.stringify({ id: task.requestId, object: 'chat.completion.chunk', model, created: Math.floor(Date.now() / 1000), choices: [{ delta: { role: 'assistant', ...delta } }] }));
    // max_tokens bounds the report's text as it streams: past the budget, content events are cut, then left out.
    const budget = task.maxTokens === undefined ? undefined : new StreamedTextBudget(task.maxTokens);
    const write = (event: ResearchEvent) => {
      if (event.type === 'content' && budget) {
        // A report shaped by output_schema comes whole, in one event.
        const kept = typeof event.content === 'string' ? budget.take(event.content) : fitReport(event.content, budget.maxTokens).content;
        if (typeof kept !== 'string' || kept.length > 0) response.write(chunk(deltaOf({ ...event, content: kept })));
      } else if (event.type === 'done') response.write(frame('', 'done'));
      else if (event.type === 'error') response.write(frame(JSON.stringify({ id: task.requestId, object: 'error', error: event.error }), 'error'));
      else response.write(chunk(deltaOf(event)));
    };
    try {
      for await (const followed of this.events.follow(task.requestId, disconnected.signal)) {
        if ('event' in followed) {
          write(followed.event);
          continue;
        }
        // A quiet spell: the task may have ended without a last event reaching the stream (it expired, or the
        // task was failed by a GET on a gateway whose event did not get through). The row is the truth.
        const current = await this.research.findTask(context, task.requestId);
        model = current.resolvedModel ?? model;
        if (isFinished(current)) {
          for (const event of this.endingOf(current)) write(event);
          break;
        }
        // A comment keeps idle proxies from closing the connection.
        response.write(': keep-alive\n\n');
      }
    } catch (error) {
      this.logger.error(`stream of research task ${task.requestId} failed: ${(error as Error).message}`);
      if (!disconnected.signal.aborted) write({ type: 'error', error: 'The event stream failed; poll GET /research/{request_id} for the result.' });
    } finally {
      response.end();
    }
  }

  /** A finished task's last events, from its row. */
  private endingOf(task: ResearchTask): ResearchEvent[] {
    if (task.status === 'failed') return [{ type: 'error', error: task.error ?? 'Research failed.' }];
    return [{ type: 'content', content: task.content ?? '' }, { type: 'sources', sources: task.sources }, { type: 'done' }];
  }
}
