import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

export type YamlObject = Record<string, unknown>;

/**
 * Every document of a YAML file as plain objects, with `<<` merge keys expanded as Compose and kubectl expand
 * them. A syntax error fails here, naming the file.
 */
export function readYamlDocuments(file: string): YamlObject[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'), { merge: true });
  return documents.map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((error) => error.message).join('; ')}`);
    return document.toJS({ maxAliasCount: 1000 }) as YamlObject;
  });
}
