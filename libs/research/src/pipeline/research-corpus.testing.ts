import type { ResearchDependencies, ResearchHit, ResearchPage } from './research-pipeline';
import { tokenize } from '@sift/ranking';

/** A small documentation corpus: pages as the extractor returns them (Markdown main content). */
export const corpusPages: ResearchPage[] = [
  {
    url: 'https://git-scm.com/docs/git-rebase',
    title: 'Git - git-rebase Documentation',
    content: `# git-rebase

Reapply commits on top of another base tip.

## Description

If \`<branch>\` is specified, **git rebase** will perform an automatic \`git switch <branch>\` before doing anything else. Otherwise it remains on the current branch.

All changes made by commits in the current branch but that are not in upstream are saved to a temporary area. The current branch is reset to upstream, and the saved commits are then reapplied to it one by one, in order.

It is possible that a merge failure will prevent this process from being completely automatic. You will have to resolve any such merge failure and run \`git rebase --continue\`.

\`\`\`
git rebase --onto master next topic
\`\`\`

Rebasing rewrites the history of a branch, so you should never rebase commits that other people have already pulled from a [shared repository](https://git-scm.com/book/en/v2/Git-Branching-Remote-Branches).
`,
  },
  {
    url: 'https://git-scm.com/docs/git-merge',
    title: 'Git - git-merge Documentation',
    content: `# git-merge

Join two or more development histories together.

## Description

Incorporates changes from the named commits into the current branch. This command is used by git pull to incorporate changes from another repository.

A merge creates a new merge commit that has two parents, so the history of both branches is kept exactly as it happened.

When the current branch has not diverged, git merge performs a fast-forward and no merge commit is created by default.
`,
  },
  {
    url: 'https://docs.github.com/en/get-started/using-git/about-git-rebase',
    title: 'About Git rebase - GitHub Docs',
    content: `# About Git rebase

The git rebase command allows you to easily change a series of commits, modifying the history of your repository. You can reorder, edit, or squash commits together.

Typically, you would use git rebase to edit previous commit messages, combine multiple commits into one, or delete commits that are no longer necessary.

Because changing your commit history can make things difficult for everyone else using the repository, it is considered bad practice to rebase commits when you have already pushed to a repository.

- [Home](https://docs.github.com/)
- [Get started](https://docs.github.com/en/get-started)
`,
  },
  {
    url: 'https://www.atlassian.com/git/tutorials/merging-vs-rebasing',
    title: 'Merging vs. Rebasing | Atlassian Git Tutorial',
    content: `# Merging vs. Rebasing

The git rebase command has a reputation for being magical Git hocus pocus that beginners should stay away from. Both of these commands are designed to integrate changes from one branch into another branch; they just do it in very different ways.

Merging is nice because it is a non-destructive operation. The existing branches are not changed in any way, which avoids the potential pitfalls of rebasing.

The major benefit of rebasing is that you get a much cleaner project history. Rebasing eliminates the unnecessary merge commits required by git merge and results in a perfectly linear project history.

The golden rule of git rebase is to never use it on public branches.

We use cookies to improve your experience. Accept all cookies.
`,
  },
  {
    url: 'https://blog.atlassian.com/git/why-we-merge',
    title: 'Why our team merges instead of rebasing',
    content: `# Why our team merges

Our team of 45 engineers switched to merge commits in 2019 because rebasing shared branches had caused lost work twice.

A merge commit records exactly when a feature branch joined the main line, which made our release notes easier to write.
`,
  },
  {
    url: 'https://en.wikipedia.org/wiki/Git',
    title: 'Git - Wikipedia',
    content: `# Git

Git is a distributed version control system that tracks versions of files. It is often used to control source code by programmers collaboratively developing software.

Git was originally created by Linus Torvalds in 2005 for the development of the Linux kernel. Since 2005, Junio Hamano has been the core maintainer.

As of 2022, Git is by far the most widely used version control system, used by about 94 percent of developers according to a Stack Overflow survey.
`,
  },
  {
    url: 'https://en.wikipedia.org/wiki/Mercurial',
    title: 'Mercurial - Wikipedia',
    content: `# Mercurial

Mercurial is a distributed revision control tool for software developers. It is supported on Microsoft Windows and Unix-like systems.

Mercurial was first released by Matt Mackall in April 2005, a few days after Git, for the same reason: the Linux kernel needed a new version control system.
`,
  },
];

export interface SearchCall {
  query: string;
  includeDomains: string[];
  excludeDomains: string[];
}

/**
 * The pipeline's two ports over the corpus (corpusPages unless `pages` are given), as the research worker's real ones
 * behave: search ranks pages by shared words and returns the first `fullText` ones with their text (the index holds
 * them) and the rest as snippets; read returns pages by URL. Both record their calls.
 */
export function corpusDependencies(options: { fullText?: string[]; pages?: ResearchPage[] } = {}) {
  const pages = options.pages ?? corpusPages;
  const searches: SearchCall[] = [];
  const reads: string[][] = [];
  const deps: ResearchDependencies = {
    async search(query, { maxResults, includeDomains, excludeDomains }) {
      searches.push({ query, includeDomains, excludeDomains });
      const wanted = new Set(tokenize(query));
      return pages
        .map((page) => ({ page, score: tokenize(`${page.title} ${page.content}`).filter((token) => wanted.has(token)).length }))
        .filter((entry) => entry.score > 0)
        .sort((left, right) => right.score - left.score)
        .slice(0, maxResults)
        .map(({ page, score }): ResearchHit => {
          const full = options.fullText?.includes(page.url) ?? false;
          return { url: page.url, title: page.title, score, content: full ? page.content : `${page.content.slice(0, 120)}…`, contentIsSnippet: !full };
        });
    },
    async read(urls) {
      reads.push(urls);
      return pages.filter((page) => urls.includes(page.url));
    },
  };
  return { deps, searches, reads };
}
