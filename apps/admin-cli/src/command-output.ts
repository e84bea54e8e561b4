/**
 * Human-readable lines, or with --json one JSON document as the last line of stdout, so scripts can read it
 * with `tail -n 1` whatever else was printed before.
 */
export function printResult(json: boolean | undefined, lines: string[], document: unknown): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(document)}\n`);
    return;
  }
  for (const line of lines) process.stdout.write(`${line}\n`);
}
