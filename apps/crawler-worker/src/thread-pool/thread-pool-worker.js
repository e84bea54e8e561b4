// Entry point of every pool thread. A worker thread starts without the parent's TypeScript hook (under
// `scripts/run-ts.js` or Jest alike), so it registers SWC itself, then loads the task module named in workerData
// and answers the parent's tasks with its `runTask` export, one at a time.
const path = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');

const repositoryRoot = path.resolve(__dirname, '..', '..', '..', '..');
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || path.join(repositoryRoot, 'tsconfig.runtime.json');

function describe(error) {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}

function loadRunTask() {
  require('@swc-node/register');
  const { runTask } = require(workerData.taskModule);
  if (typeof runTask !== 'function') throw new Error(`${workerData.taskModule} does not export runTask`);
  return runTask;
}

function serve(runTask) {
  parentPort.on('message', (message) => {
    try {
      parentPort.postMessage({ type: 'result', id: message.id, result: runTask(message.task) });
    } catch (error) {
      parentPort.postMessage({ type: 'error', id: message.id, error: describe(error) });
    }
  });
  parentPort.postMessage({ type: 'ready' });
}

let loaded;
try {
  loaded = loadRunTask();
} catch (error) {
  parentPort.postMessage({ type: 'failed', error: describe(error) });
}
if (loaded) serve(loaded);
