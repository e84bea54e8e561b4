/**
 * Compose's variable interpolation (${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}, $$),
 * applied to every string of the parsed file, as `docker compose config` does before it validates. A required
 * variable that is missing throws with Compose's message.
 */
export function interpolate(value: unknown, environment: Record<string, string>): unknown {
  if (typeof value === 'string') return interpolateText(value, environment);
  if (Array.isArray(value)) return value.map((item) => interpolate(item, environment));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, environment)]));
  }
  return value;
}

function interpolateText(text: string, environment: Record<string, string>): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])((?:[^{}]|\{[^{}]*\})*))?\}/g, (match, name?: string, colon?: string, operator?: string, argument = '') => {
    if (match === '$$') return '$';
    const value = environment[name as string];
    const unset = value === undefined || (colon === ':' && value === '');
    if (operator === '-') return unset ? argument : value;
    if (operator === '?' && unset) throw new Error(`required variable ${name} is missing a value: ${argument}`);
    return value ?? '';
  });
}
