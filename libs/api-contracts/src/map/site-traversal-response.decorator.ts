import { ApiPropertyOptional } from '@nestjs/swagger';
import { FailedResultDto } from '../common/failed-result.dto';

/** The optional `failed_results` of a crawl or map answer: pages the traversal reached but could not process. */
export function SiteTraversalFailedResultsField(): PropertyDecorator {
  return ApiPropertyOptional({
    type: [FailedResultDto],
    description: 'Only when some page the traversal reached could not be processed (the first 100); never charged. Each with error_code and retryable.',
  });
}

/** The optional `warnings` of a crawl or map answer. */
export function SiteTraversalWarningsField(): PropertyDecorator {
  return ApiPropertyOptional({
    type: [String],
    description: 'Only when something about the answer needs saying, e.g. links not followed because robots.txt disallows them.',
  });
}
