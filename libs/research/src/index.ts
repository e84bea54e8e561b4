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
export { compileOutputSchema, type OutputSchema, type OutputSchemaValidator } from './output-schema';
