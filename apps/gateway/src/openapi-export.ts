import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { buildOpenApiDocument } from './openapi';

/** Where the committed document lives: the repository root, next to package.json. */
export const COMMITTED_OPENAPI_PATH = path.resolve(__dirname, '../../../openapi.json');

/**
 * Builds the OpenAPI document from the route metadata alone. Preview mode resolves the module graph without
 * running any provider factory, so no database or Redis connection is opened (CI can run it anywhere).
 */
export async function buildOfflineOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(AppModule, { preview: true, logger: false, abortOnError: false });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/** The committed file's exact text: two-space indentation and a final newline, so diffs stay readable. */
export function serializeOpenApiDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

async function exportOpenApi(): Promise<void> {
  const document = await buildOfflineOpenApiDocument();
  writeFileSync(COMMITTED_OPENAPI_PATH, serializeOpenApiDocument(document));
  console.log(`wrote ${COMMITTED_OPENAPI_PATH} (${Object.keys(document.paths).length} paths)`);
}

// Run as a script (`npm run openapi` starts it through scripts/run-ts.js, so require.main is that runner).
if (process.argv[1] === __filename) {
  exportOpenApi().catch((error: Error) => {
    console.error(`openapi export failed: ${error.stack ?? error.message}`);
    process.exit(1);
  });
}
