import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// `npm start` builds before it starts anything (scripts/build.js buildIfStale), so every process runs compiled code.
// Exercised on a small tree of its own under tmp/ (inside the checkout, so @swc/core resolves), never on this
// checkout's dist/, which other tests' processes may be running from.
const repositoryRoot = resolve(__dirname, '..');

function makeTree(): string {
  const root = join(repositoryRoot, 'tmp', `build-spec-${randomBytes(4).toString('hex')}`);
  mkdirSync(join(root, 'scripts'), { recursive: true });
  for (const script of ['build.js', 'compiled-entry.js']) cpSync(join(repositoryRoot, 'scripts', script), join(root, 'scripts', script));
  writeFileSync(join(root, 'tsconfig.base.json'), JSON.stringify({ compilerOptions: { paths: { '@tree/lib': ['libs/lib/src/index.ts'] } } }));
  mkdirSync(join(root, 'libs', 'lib', 'src'), { recursive: true });
  writeFileSync(join(root, 'libs', 'lib', 'src', 'index.ts'), 'export const answer: number = 42;\n');
  // Enough files that a build lasts long enough for concurrent starts to overlap it.
  mkdirSync(join(root, 'libs', 'lib', 'src', 'many'), { recursive: true });
  for (let file = 0; file < 400; file += 1) writeFileSync(join(root, 'libs', 'lib', 'src', 'many', `m${file}.ts`), `export const value${file}: number = ${file};\n`);
  mkdirSync(join(root, 'apps', 'gateway', 'src'), { recursive: true });
  writeFileSync(join(root, 'apps', 'gateway', 'src', 'main.ts'), "import { answer } from '@tree/lib';\nconsole.log(answer);\n");
  mkdirSync(join(root, 'prisma', 'migrations'), { recursive: true });
  writeFileSync(join(root, 'prisma', 'migrate.ts'), 'export {};\n');
  ageTree(root);
  return root;
}

/** Dates every file of the tree a minute back, so a test that moves the build stamp into the past still finds only
 * the files it touches newer than the build. */
function ageTree(directory: string): void {
  const aged = new Date(Date.now() - 60_000);
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = join(directory, entry.name);
    if (entry.isDirectory()) ageTree(full);
    else utimesSync(full, aged, aged);
  }
}

/** buildIfStale in a process of its own, as start.js calls it: whether it built. */
function buildIfStale(root: string): Promise<boolean> {
  return new Promise((resolveBuilt, reject) => {
    const child = spawn(process.execPath, ['-e', "process.stdout.write(String(require('./scripts/build.js').buildIfStale()))"], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolveBuilt(output === 'true') : reject(new Error(output))));
  });
}

describe('the build npm start makes before it starts Sift', () => {
  const trees: string[] = [];
  afterAll(() => {
    for (const tree of trees) rmSync(tree, { recursive: true, force: true });
  });

  it('builds a tree without dist/, then not again until a source is newer than the build', async () => {
    const root = makeTree();
    trees.push(root);
    expect(await buildIfStale(root)).toBe(true);
    const compiled = join(root, 'dist', 'apps', 'gateway', 'src', 'main.js');
    expect(execFileSync(process.execPath, [compiled]).toString().trim()).toBe('42');
    expect(await buildIfStale(root)).toBe(false);
    // A source edited after the build (times in the past: a build stamps the present).
    const builtAt = new Date(Date.now() - 10_000);
    const editedAt = new Date(Date.now() - 5_000);
    utimesSync(join(root, 'dist', '.build-stamp'), builtAt, builtAt);
    utimesSync(join(root, 'libs', 'lib', 'src', 'index.ts'), editedAt, editedAt);
    expect(await buildIfStale(root)).toBe(true);
    expect(await buildIfStale(root)).toBe(false);
    // A new migration alone: the compiled migration runner reads dist/'s copy of the migrations.
    utimesSync(join(root, 'dist', '.build-stamp'), builtAt, builtAt);
    mkdirSync(join(root, 'prisma', 'migrations', '20990101000000_next'));
    writeFileSync(join(root, 'prisma', 'migrations', '20990101000000_next', 'migration.sql'), 'SELECT 1;\n');
    utimesSync(join(root, 'prisma', 'migrations', '20990101000000_next', 'migration.sql'), editedAt, editedAt);
    expect(await buildIfStale(root)).toBe(true);
    expect(existsSync(join(root, 'dist', 'prisma', 'migrations', '20990101000000_next', 'migration.sql'))).toBe(true);
  });

  it('builds again when the Prisma client is generated again with no source changed (a new Prisma version)', async () => {
    const root = makeTree();
    trees.push(root);
    const client = join(root, 'libs', 'lib', 'src', 'generated', 'prisma', 'client.ts');
    mkdirSync(join(client, '..'), { recursive: true });
    writeFileSync(client, 'export const generatedBy = 1;\n');
    ageTree(root);
    expect(await buildIfStale(root)).toBe(true);
    expect(await buildIfStale(root)).toBe(false);
    const builtAt = new Date(Date.now() - 10_000);
    const generatedAt = new Date(Date.now() - 5_000);
    utimesSync(join(root, 'dist', '.build-stamp'), builtAt, builtAt);
    writeFileSync(client, 'export const generatedBy = 2;\n');
    utimesSync(client, generatedAt, generatedAt);
    expect(await buildIfStale(root)).toBe(true);
    expect(execFileSync(process.execPath, ['-e', `console.log(require(${JSON.stringify(join(root, 'dist', 'libs', 'lib', 'src', 'generated', 'prisma', 'client.js'))}).generatedBy)`]).toString().trim()).toBe('2');
  });

  it('builds once when several starts find it stale at the same time', async () => {
    const root = makeTree();
    trees.push(root);
    const built = await Promise.all([buildIfStale(root), buildIfStale(root), buildIfStale(root)]);
    expect(built.filter(Boolean)).toHaveLength(1);
    expect(existsSync(join(root, 'tmp', 'build.lock'))).toBe(false);
  });

  it('takes over a lock left by a build that died', async () => {
    const root = makeTree();
    trees.push(root);
    const lock = join(root, 'tmp', 'build.lock');
    mkdirSync(join(root, 'tmp'), { recursive: true });
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    expect(await buildIfStale(root)).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });
});
