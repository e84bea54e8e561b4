export type {
  ResearchBudget,
  ResearchCheckpoint,
  ResearchDependencies,
  ResearchHit,
  ResearchOutcome,
  ResearchPage,
  ResearchProgress,
  ResearchRequest,
} from './pipeline/research-pipeline';
export { compileOutputSchema, type OutputSchema, type OutputSchemaValidator, unfilledFields } from './output-schema';
export { runResearch } from './pipeline/run-research';
export { isGroundedIn } from './pipeline/grounding';
export { inlineCitation, sourceListEntry, type CitationFormat } from './pipeline/citation-style';
export type { ResearchSection } from './pipeline/research-plan';
export type { NewResearchTask, ResearchReport, ResearchTask, ResearchTaskStatus, ResearchWork } from './task/research-task';
export { isFinished } from './task/research-task';
export { OVERDUE_REASON, ResearchTaskRepository } from './task/research-task.repository';
export { ResearchEvents, type FollowedEvent } from './task/research-events';
export { ResearchTaskFinisher, type FinisherLog } from './task/research-task-finisher';
export { researchDeadlineMs } from './task/research-deadlines';
export { queueResearchTask } from './task/research-queueing';
