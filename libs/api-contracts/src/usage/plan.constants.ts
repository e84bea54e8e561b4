/** Plan identifiers, in the order of the spec's plan table. */
export const PLAN_IDS = ['researcher', 'project', 'bootstrap', 'startup', 'growth', 'paygo', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
