// Entry point of every pool thread (piscina loads it and calls its `runTask` export). A worker thread starts
// without the parent's TypeScript hook (under `scripts/run-ts.js` or Jest alike), so it registers SWC itself,
// then loads the task module named in workerData. Compiled code (dist/, the image) has a .js beside the name and
// needs no hook. The name's own dots say nothing ("content-parsing.task" is compiled when
// "content-parsing.task.js" is there). A compiled thread must not load SWC: its native binding, in threads that are
// terminated and replaced, takes the whole process down with SIGSEGV.
const fs = require('node:fs');
const path = require('node:path');
const { workerData } = require('piscina');

const compiled = fs.existsSync(`${workerData.taskModule}.js`);
if (!compiled) {
  const repositoryRoot = path.resolve(__dirname, '..', '..', '..');
  process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || path.join(repositoryRoot, 'tsconfig.runtime.json');
  require('@swc-node/register');
}

const { runTask } = require(workerData.taskModule);
if (typeof runTask !== 'function') throw new Error(`${workerData.taskModule} does not export runTask`);

module.exports = { runTask };
