import { ApiProperty } from '@nestjs/swagger';
import { type UrlFailureCode, urlFailureCodes } from '@sift/queue-contracts';

/** One URL that could not be processed: the reason in words, and a stable code a program can branch on. */
export class FailedResultDto {
  @ApiProperty()
  url!: string;

  @ApiProperty({ description: 'Why the URL could not be processed, in words.' })
  error!: string;

  @ApiProperty({
    enum: urlFailureCodes,
    enumName: 'UrlFailureCode',
    description:
      'Stable code of the failure (docs/errors.md): not_found (404/410), forbidden (401/403), blocked (block, challenge or ' +
      'consent page), rate_limited (429), server_error (5xx), http_error (another 4xx), timeout, dns (the host does not ' +
      'resolve), connection (refused, reset, cut), too_large, unsupported_type, empty (no content), robots (robots.txt ' +
      'disallows it), not_allowed (a private address or egress policy refusal), invalid_url, bad_redirect (a loop or a ' +
      'redirect without Location), internal (Sift failed on its side).',
    example: 'not_found',
  })
  error_code!: UrlFailureCode;

  @ApiProperty({
    description: 'True when the same request may succeed later (timeout, dns, connection, rate_limited, server_error, internal); false when it will fail again.',
  })
  retryable!: boolean;
}
