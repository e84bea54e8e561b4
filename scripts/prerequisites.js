// Checks what Sift needs before it starts or tests, and says what is missing in one line each.
const net = require('node:net');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function endpointOf(rawUrl, defaultPort) {
  const url = new URL(rawUrl);
  return { host: url.hostname || '127.0.0.1', port: Number(url.port || defaultPort) };
}

/** Whether an executable of this name is in one of PATH's folders, as the shell would find it. */
function onPath(command) {
  return (process.env.PATH || '').split(path.delimiter).some((folder) => {
    if (!folder) return false;
    try {
      fs.accessSync(path.join(folder, command), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function canConnect({ host, port }, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function checkPrerequisites({ requireChromium }) {
  const problems = [];
  const warnings = [];
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) problems.push(`Node.js ${process.versions.node} is too old: Sift needs Node 20.19 or newer.`);
  if (!fs.existsSync(path.join(root, 'node_modules'))) problems.push('npm packages are not installed: run `npm ci` first.');
  const databaseUrl = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/sift';
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const postgres = endpointOf(databaseUrl, 5432);
  const redis = endpointOf(redisUrl, 6379);
  if (!(await canConnect(postgres))) problems.push(`PostgreSQL is not reachable at ${postgres.host}:${postgres.port} (set DATABASE_URL, or start PostgreSQL).`);
  if (!(await canConnect(redis))) problems.push(`Redis is not reachable at ${redis.host}:${redis.port} (set REDIS_URL, or start redis-server).`);
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    const line = `Chromium is missing at ${chromium} (install Debian's package: apt-get install chromium, or set CHROMIUM_PATH).`;
    if (requireChromium) problems.push(line);
    else warnings.push(`${line} Browser rendering (extract_depth advanced) will fail until it is installed.`);
  }
  if (!onPath('jq')) warnings.push("jq is not on PATH: the README's key command reads the new key out with it (apt-get install jq).");
  for (const warning of warnings) console.warn(`warning: ${warning}`);
  if (problems.length) {
    for (const problem of problems) console.error(`error: ${problem}`);
    process.exit(1);
  }
}

module.exports = { checkPrerequisites, root };
