import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..');

/** Every Nx project folder (a project.json) with the squad of its `scope:` tag. */
function projectSquads(): Map<string, string> {
  const folders = ['apps', 'libs', 'bench'].flatMap((parent) => readdirSync(join(root, parent)).map((name) => `${parent}/${name}`)).concat('deploy');
  const squads = new Map<string, string>();
  for (const folder of folders) {
    const file = join(root, folder, 'project.json');
    if (!existsSync(file)) continue;
    const tags = (JSON.parse(readFileSync(file, 'utf8')) as { tags?: string[] }).tags ?? [];
    squads.set(folder, tags.find((tag) => tag.startsWith('scope:'))?.slice('scope:'.length) ?? '(none)');
  }
  return squads;
}

/** CODEOWNERS as GitHub reads it: the last matching line wins. */
function codeOwnersOf(path: string): string[] {
  const rules = readFileSync(join(root, '.github', 'CODEOWNERS'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(/\s+/));
  let owners: string[] = [];
  for (const [pattern, ...teams] of rules) {
    const folder = pattern.replace(/^\//, '');
    if (pattern === '*' || `${path}/`.startsWith(folder)) owners = teams;
  }
  return owners;
}

describe('squads', () => {
  const squads = projectSquads();

  it('tags every project with one of the five squads', () => {
    expect([...squads].filter(([, squad]) => !['edge', 'pages', 'search', 'research', 'platform'].includes(squad))).toEqual([]);
    expect(squads.size).toBeGreaterThan(25);
  });

  it('gives every project folder to its squad in CODEOWNERS', () => {
    const wrong = [...squads].filter(([folder, squad]) => codeOwnersOf(folder).join(' ') !== `@sift/${squad}`);
    expect(wrong).toEqual([]);
  });

  describe('the lint rule between squads', () => {
    beforeAll(() => {
      // The module-boundary rule reads Nx's project graph (tags included): compute it as `npm test` does.
      execFileSync(join(root, 'node_modules', '.bin', 'nx'), ['show', 'projects'], { cwd: root, stdio: 'ignore' });
    });

    /** ESLint as `npm test` runs it, on a file that is not written: its text on stdin, its path in the project. */
    async function boundaryErrors(file: string, code: string): Promise<string[]> {
      let output: string;
      try {
        output = execFileSync(join(root, 'node_modules', '.bin', 'eslint'), ['--stdin', '--stdin-filename', file, '--format', 'json'], { cwd: root, input: code, encoding: 'utf8' });
      } catch (error) {
        // Exit status 1: lint errors were found; the report is on stdout all the same.
        output = (error as { stdout: string }).stdout;
      }
      const [result] = JSON.parse(output) as Array<{ messages: Array<{ ruleId: string | null; message: string }> }>;
      return result.messages.filter((message) => message.ruleId === '@nx/enforce-module-boundaries').map((message) => message.message);
    }

    it('fails a project of the pages squad that uses the search squad’s libraries', async () => {
      const app = await boundaryErrors('apps/crawler-worker/src/squad-probe.ts', "import { SearchFanOut } from '@sift/search-index';\nexport const probe = SearchFanOut;\n");
      expect(app).toEqual([expect.stringContaining('A project tagged with "scope:pages" and "type:app" can only depend on libs tagged with "scope:pages", "scope:platform"')]);
      const library = await boundaryErrors('libs/pages/src/squad-probe.ts', "import { RerankService } from '@sift/models';\nexport const probe = RerankService;\n");
      expect(library).toEqual([expect.stringContaining('A project tagged with "scope:pages" and "type:feature" can only depend on libs tagged with "scope:pages", "scope:platform"')]);
    });

    it('fails the platform using a squad above it, and passes the layering’s own direction', async () => {
      expect(await boundaryErrors('libs/queue/src/squad-probe.ts', "import { PageRepository } from '@sift/pages';\nexport const probe = PageRepository;\n")).toHaveLength(1);
      expect(await boundaryErrors('libs/search-index/src/squad-probe.ts', "import { PageRepository } from '@sift/pages';\nexport const probe = PageRepository;\n")).toEqual([]);
      expect(await boundaryErrors('libs/research/src/squad-probe.ts', "import { SearchFanOut } from '@sift/search-index';\nexport const probe = SearchFanOut;\n")).toEqual([]);
    });
  });
});
