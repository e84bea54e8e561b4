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
export { runResearch } from './pipeline/run-research';
export { isGroundedIn } from './pipeline/grounding';
export { inlineCitation, sourceListEntry, type CitationFormat } from './pipeline/citation-style';
export type { ResearchSection } from './pipeline/research-plan';
