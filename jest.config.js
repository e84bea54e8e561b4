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
  transformIgnorePatterns: ['/node_modules/(?!(kubernetes-models|@kubernetes-models|is-cidr|cidr-regex|ip-regex|linkedom|htmlparser2|entities|domhandler|domutils|dom-serializer|@tavily|@langchain|p-retry|p-queue|p-timeout|eventemitter3|uuid|ky|re2js|css-select|css-what|nth-check|boolbase|domelementtype|cssomnom|html-escaper|uhyphen|pdfjs-dist)/)'],
  modulePathIgnorePatterns: ['<rootDir>/tmp/', '<rootDir>/dist/'],
};

module.exports = {
  // Integration tests start browsers and servers; the per-project testTimeout is not honoured by Jest, this one is.
  testTimeout: 60000,
  // A worker keeps every module a test file required (Nest apps, Prisma clients, browsers' bindings) for its whole life,
  // so its heap grows file by file until it runs out; past this after a file, it is replaced by a fresh one.
  workerIdleMemoryLimit: '1536MB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,prisma,bench}/**/*.spec.ts'] },
    {
      ...common,
      // The compose file, the image and the Kubernetes manifests against their schemas. kubernetes-models is
      // published as ES modules with "import"-only exports, which Jest's require cannot resolve: mapped to files.
      displayName: 'deploy',
      testMatch: ['<rootDir>/deploy/**/*.spec.ts'],
      moduleNameMapper: {
        ...moduleNameMapper,
        '^kubernetes-models/_schemas/(.*)$': '<rootDir>/node_modules/kubernetes-models/_schemas/$1.js',
        '^kubernetes-models/(.*)$': '<rootDir>/node_modules/kubernetes-models/$1/index.js',
        '^@kubernetes-models/keda/(.*)$': '<rootDir>/node_modules/@kubernetes-models/keda/$1/index.js',
        '^@kubernetes-models/(base|validate)$': '<rootDir>/node_modules/@kubernetes-models/$1/dist/index.js',
        '^@kubernetes-models/validate/runtime/(.*)$': '<rootDir>/node_modules/@kubernetes-models/validate/dist/runtime/$1.js',
        '^@kubernetes-models/apimachinery/_schemas/(.*)$': '<rootDir>/node_modules/@kubernetes-models/apimachinery/_schemas/$1.js',
      },
    },
    {
      ...common,
      displayName: 'int',
      testMatch: ['<rootDir>/{apps,libs,prisma}/**/*.int-spec.ts', '<rootDir>/apps/gateway-e2e/**/*.e2e-spec.ts'],
      testTimeout: 60000,
      setupFiles: ['<rootDir>/libs/testing/src/jest-env.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
    },
  ],
};
