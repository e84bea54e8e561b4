/** A caller's select/exclude pattern that cannot be used; the gateway answers it with 400. */
export class InvalidPatternError extends Error {
  constructor(
    readonly field: 'select_paths' | 'select_domains' | 'exclude_paths' | 'exclude_domains',
    readonly pattern: string,
    reason: string,
  ) {
    super(`invalid regular expression in ${field}: ${JSON.stringify(pattern.slice(0, 100))} (${reason})`);
    this.name = 'InvalidPatternError';
  }
}
