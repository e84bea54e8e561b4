import type { JobDefinition } from '@sift/queue-contracts';
import { InvalidJobPayloadError } from './invalid-job-payload.error';

/** Parses a payload with its job's schema; both the producer and the worker call this. */
export function validatePayload<Payload, Result>(definition: JobDefinition<Payload, Result>, payload: unknown): Payload {
  const parsed = definition.payloadSchema.safeParse(payload);
  if (!parsed.success) {
    throw new InvalidJobPayloadError(definition.name, parsed.error.issues);
  }
  return parsed.data;
}
