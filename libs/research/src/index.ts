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
