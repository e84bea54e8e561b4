// One Jest configuration for the monorepo: `unit` (*.spec.ts, pure and fast) and `int`
// (*.int-spec.ts and the e2e suite: real Postgres, Redis, BullMQ, Chromium, loopback web servers).
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleNameMapper,
  transform: { '^.+\\.(t|j|mj)s$': swc },
  // ESM-only dependencies are compiled to CommonJS for Jest.
  transformIgnorePatterns: ['/node_modules/(?!(linkedom|htmlparser2|entities|domhandler|domutils|dom-serializer|@tavily|@langchain|p-retry|p-queue|p-timeout|eventemitter3|uuid|ky|re2js|css-select|css-what|nth-check|boolbase|domelementtype|cssomnom|html-escaper|uhyphen|pdfjs-dist)/)'],
  modulePathIgnorePatterns: ['<rootDir>/tmp/', '<rootDir>/dist/'],
};

module.exports = {
  // Integration tests start browsers and servers; the per-project testTimeout is not honoured by Jest, this one is.
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,prisma,bench}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'int',
      testMatch: ['<rootDir>/{apps,libs,prisma}/**/*.int-spec.ts', '<rootDir>/apps/gateway-e2e/**/*.e2e-spec.ts'],
      testTimeout: 60000,
      setupFiles: ['<rootDir>/libs/testing/src/jest-env.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
    },
  ],
};
