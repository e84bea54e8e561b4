import { Counter, register } from 'prom-client';

/** Credits settled by the gateway's requests, by endpoint (research is charged by its worker when the task ends). */
export function creditsChargedCounter(): Counter<'endpoint'> {
  const existing = register.getSingleMetric('sift_credits_charged_total');
  if (existing) return existing as Counter<'endpoint'>;
  return new Counter({ name: 'sift_credits_charged_total', help: 'Credits charged to keyed callers, by endpoint.', labelNames: ['endpoint'] });
}
