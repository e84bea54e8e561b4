import { Counter, register, type Registry } from 'prom-client';

const NAME = 'sift_credits_charged_total';

/**
 * Credits charged to keyed callers, by endpoint, in a process's registry: the gateway counts what its requests
 * settle, the research worker what its tasks settle. A settle that replays an earlier one is not counted again.
 */
export function creditsChargedCounter(registry: Registry = register): Counter<'endpoint'> {
  const existing = registry.getSingleMetric(NAME);
  if (existing) return existing as Counter<'endpoint'>;
  return new Counter({ name: NAME, help: 'Credits charged to keyed callers, by endpoint.', labelNames: ['endpoint'], registers: [registry] });
}
