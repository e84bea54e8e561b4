import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

/** Route metadata: a POST of the tenant API, whose `Idempotency-Key` header the idempotency interceptor honours. */
export const IDEMPOTENT_ROUTE = 'sift:idempotent-route';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** Marks a route as honouring `Idempotency-Key` when it is a POST; `documented` adds the header to its Swagger operation. */
export function IdempotentRoute(documented: boolean): MethodDecorator {
  const header = ApiHeader({
    name: IDEMPOTENCY_KEY_HEADER,
    required: false,
    description:
      `Up to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, unique per operation (a UUID): a retry with the same key and body within 24 h ` +
      `gets the first answer again (with ${IDEMPOTENT_REPLAYED_HEADER}: true) and is not charged again; another body with the ` +
      'same key is refused with 422. See docs/idempotency.md.',
  });
  return applyDecorators(SetMetadata(IDEMPOTENT_ROUTE, true), ...(documented ? [header] : []));
}
