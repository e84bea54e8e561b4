export const EXTRACT_LIMITS = {
  urls: 20,
  timeout: { min: 1, max: 60 },
  // Applied by the service when `timeout` is absent.
  defaultTimeoutSeconds: { basic: 10, advanced: 30 },
} as const;
