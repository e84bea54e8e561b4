import type { LoggerService } from '@nestjs/common';
import { createStructuredLogger } from '@sift/queue';
import type { Logger } from 'pino';

/**
 * Nest's logger as JSON lines (the workers' format: time, level, service "gateway", message, the request id of
 * the request being served), so Nest's own start-up and error messages are structured too. Nest passes the
 * logging class's name as the last argument (`new Logger('metering')`); it becomes the line's `context`.
 */
export class StructuredNestLogger implements LoggerService {
  private readonly logger: Logger;

  constructor(level: string) {
    this.logger = createStructuredLogger('gateway', level);
  }

  log(message: unknown, ...parameters: unknown[]): void {
    this.write('info', message, parameters);
  }

  warn(message: unknown, ...parameters: unknown[]): void {
    if (isPreviewModeNotice(message)) return;
    this.write('warn', message, parameters);
  }

  debug(message: unknown, ...parameters: unknown[]): void {
    this.write('debug', message, parameters);
  }

  verbose(message: unknown, ...parameters: unknown[]): void {
    this.write('trace', message, parameters);
  }

  fatal(message: unknown, ...parameters: unknown[]): void {
    this.write('fatal', message, parameters);
  }

  /** Nest calls error(message, stack, context); a stack arrives as the first of two parameters. */
  error(message: unknown, ...parameters: unknown[]): void {
    const stack = parameters.length === 2 && typeof parameters[0] === 'string' ? parameters[0] : undefined;
    this.write('error', message, stack === undefined ? parameters : parameters.slice(1), stack);
  }

  private write(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal', message: unknown, parameters: unknown[], stack?: string): void {
    const context = typeof parameters.at(-1) === 'string' ? (parameters.at(-1) as string) : undefined;
    const text = message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
    this.logger[level]({ message: text, ...(context === undefined ? {} : { context }), ...(stack === undefined ? {} : { stack }) });
  }
}

/**
 * The block Nest prints when an application starts in preview mode. The gateway's only preview application is the
 * empty one that reads the DTOs' JSON Schemas for the MCP tools (mcp/tool-input-schemas.ts): the notice is about that
 * throwaway application, not the gateway, and read at every start as an alarm. It cannot be silenced there (a logger
 * option replaces Nest's process-wide logger), so it is dropped here.
 */
const PREVIEW_MODE_LINES = new Set([
  '------------------------------------------------',
  'Application is running in the PREVIEW mode!',
  'Providers/controllers will not be instantiated.',
]);

function isPreviewModeNotice(message: unknown): boolean {
  return typeof message === 'string' && PREVIEW_MODE_LINES.has(message);
}
