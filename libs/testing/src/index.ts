export { startGitDocsSite, GIT_DOCS_SITE_ROOT } from './git-docs-site';
export type { GitDocsSite, GitDocsSiteOptions } from './git-docs-site';
