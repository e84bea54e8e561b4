// Module boundaries are enforced here, not in review (see ../shared/STYLE.md §2.4).
const nx = require('@nx/eslint-plugin');
const tseslint = require('typescript-eslint');

const egressBan = {
  paths: [
    { name: 'undici', message: 'Only libs/safe-fetch may make outbound requests.' },
    { name: 'node:http', importNames: ['request', 'get'], message: 'Only libs/safe-fetch may make outbound requests.' },
    { name: 'node:https', message: 'Only libs/safe-fetch may make outbound requests.' },
    { name: 'http', importNames: ['request', 'get'], message: 'Only libs/safe-fetch may make outbound requests.' },
    { name: 'https', message: 'Only libs/safe-fetch may make outbound requests.' },
  ],
};

/**
 * The squads that own the projects (the `scope:` tag of each project.json; CODEOWNERS names the same teams), and whose
 * projects each squad's may use: a layering, so no two squads depend on each other. The edge (the HTTP and MCP
 * surface, keys, the admin API) composes everything; research reads pages and searches the index; search indexes the
 * pages; the pages squad fetches, renders and extracts on the platform (config, database, queues, egress, billing).
 * Contracts (`type:contracts`) are everyone's. Benchmarks, end-to-end suites and the test fixtures are leaves that
 * measure or exercise whatever they need, so the squad rules apply to apps and libraries only.
 */
const SQUAD_DEPENDENCIES = {
  platform: ['platform'],
  pages: ['pages', 'platform'],
  search: ['search', 'pages', 'platform'],
  research: ['research', 'search', 'pages', 'platform'],
  edge: ['edge', 'research', 'search', 'pages', 'platform'],
};

function squadConstraints() {
  const ruledTypes = ['type:app', 'type:feature', 'type:infra', 'type:domain', 'type:contracts'];
  return Object.entries(SQUAD_DEPENDENCIES).flatMap(([squad, allowed]) =>
    ruledTypes.map((type) => ({
      allSourceTags: [`scope:${squad}`, type],
      onlyDependOnLibsWithTags: [...allowed.map((scope) => `scope:${scope}`), 'type:contracts'],
    })),
  );
}

const depConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:infra', 'type:domain', 'type:contracts'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:testing', 'type:contracts'] },
  // Benchmarks measure the libraries and read the shared fixtures (the benchmark data, the fixture sites).
  { sourceTag: 'type:bench', onlyDependOnLibsWithTags: ['type:feature', 'type:infra', 'type:domain', 'type:contracts', 'type:testing'] },
  { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:infra', 'type:domain', 'type:contracts'] },
  { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:infra', 'type:domain', 'type:contracts'] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:feature', 'type:infra', 'type:domain', 'type:contracts', 'type:testing'] },
  ...squadConstraints(),
];

module.exports = [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', 'tmp/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints,
          // Pure domain libs may not pull in frameworks or infrastructure.
          banTransitiveDependencies: false,
        },
      ],
    },
  },
  {
    // Tests (and the gateway's test harness) may use the shared fixtures and factories of type:testing.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'apps/*/src/testing/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: depConstraints.map((constraint) =>
            constraint.allSourceTags
              ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:testing'] }
              : constraint.sourceTag.startsWith('type:') && constraint.sourceTag !== 'type:domain' && constraint.sourceTag !== 'type:contracts'
                ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:testing'] }
                : constraint,
          ),
        },
      ],
    },
  },
  {
    files: ['libs/content-extraction/**/*.ts', 'libs/ranking/**/*.ts', 'libs/api-contracts/**/*.ts', 'libs/queue-contracts/**/*.ts'],
    ignores: ['libs/api-contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@nestjs/*', '@prisma/*', 'bullmq', 'ioredis', 'playwright-core'], message: 'Pure libs stay framework-free.' }] }],
    },
  },
  {
    // One egress path: nothing outside safe-fetch opens outbound connections.
    files: ['apps/*/src/**/*.ts', 'libs/**/*.ts'],
    ignores: ['libs/safe-fetch/**', 'libs/testing/**', 'apps/gateway-e2e/**', '**/*.spec.ts', '**/*.int-spec.ts'],
    rules: {
      'no-restricted-imports': ['error', egressBan],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use @sift/safe-fetch: the only egress path.' }],
    },
  },
];
