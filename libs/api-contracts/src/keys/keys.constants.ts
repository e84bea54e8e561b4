export const KEY_ENVIRONMENTS = ['dev', 'prod'] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

export const KEY_STATUSES = ['active', 'deactivated'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

export const KEY_MANAGEMENT_LIMITS = {
  count: { min: 1, max: 100, default: 1 },
  nameCharacters: 200,
  // One request deactivates at most as many keys as one generate-keys call can create.
  keysPerDeactivation: 100,
} as const;
