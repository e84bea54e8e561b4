// Where `npm run build` puts compiled code, and whether an entry point's compiled copy may be run: only when the
// build is newer than every TypeScript source, so a developer who edits after building never runs stale code. The
// image holds dist/ without the sources, so there it is always used.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const distDirectory = path.join(root, 'dist');
const buildStamp = path.join(distDirectory, '.build-stamp');

function newestSourceMtimeMs(directory) {
  if (!fs.existsSync(directory)) return 0;
  let newest = 0;
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    // The generated Prisma client counts: a new Prisma version generates it again without any source changing.
    if (entry.name === 'node_modules') continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtimeMs(full));
    // What the build compiles or copies: TypeScript, plain .js sources (the task-pool thread entry), migrations.
    else if (/\.(ts|js|sql|prisma)$/.test(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** The compiled file for `entry` (e.g. apps/gateway/src/main.ts), or undefined when TypeScript must run. */
function compiledEntry(entry) {
  const compiled = path.join(distDirectory, entry.replace(/\.ts$/, '.js'));
  if (!fs.existsSync(compiled) || !fs.existsSync(buildStamp)) return undefined;
  const builtAt = fs.statSync(buildStamp).mtimeMs;
  const sourcesAt = Math.max(...['apps', 'libs', 'prisma'].map((folder) => newestSourceMtimeMs(path.join(root, folder))));
  return sourcesAt <= builtAt ? compiled : undefined;
}

module.exports = { root, distDirectory, buildStamp, compiledEntry };
