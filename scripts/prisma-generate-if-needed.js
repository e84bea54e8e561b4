// Generates the Prisma client when it is missing or older than the schema.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const schema = path.join(root, 'prisma', 'schema.prisma');
const client = path.join(root, 'libs', 'persistence', 'src', 'generated', 'prisma', 'client.ts');

function generateIfNeeded() {
  if (fs.existsSync(client) && fs.statSync(client).mtimeMs >= fs.statSync(schema).mtimeMs) return;
  execFileSync(process.execPath, [path.join(__dirname, 'prisma-generate.js')], { cwd: root, stdio: 'inherit' });
}

module.exports = { generateIfNeeded };
