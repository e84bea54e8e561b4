// Worker threads with a deadline and a heap cap for work on untrusted input (parsing fetched content).
export { TaskPool, TaskPoolError, type TaskPoolErrorCode, type TaskPoolOptions, type TaskRunOptions } from './task-pool';
export { parsingLimitsOf, type ParsingSettings } from './parsing-limits';
