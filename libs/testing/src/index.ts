export { benchDataDirectory } from './bench-data';
export { startGitDocsSite, GIT_DOCS_SITE_ROOT } from './git-docs-site';
export type { GitDocsSite, GitDocsSiteOptions } from './git-docs-site';
export { addTestMember, createTestAccount, createTestKey } from './account-factories';
export type { TestAccountOptions, TestKey, TestKeyOptions, TestMemberOptions } from './account-factories';
export { callGateway } from './gateway-http-client';
export type { GatewayAnswer, GatewayCallOptions } from './gateway-http-client';
export { binaryNoise, linkHeavyHtml, pdfBomb } from './hostile-content';
export type { PdfBombOptions } from './hostile-content';
