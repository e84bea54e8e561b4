/**
 * The JSON text of a parsed body with every object's keys sorted, so that two bodies a client means as the same
 * (`{"a":1,"b":2}` and `{"b":2,"a":1}`, or the same body pretty-printed) fingerprint alike.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value)) ?? 'null';
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return Object.fromEntries(entries.map(([name, member]) => [name, sortedKeys(member)]));
}
