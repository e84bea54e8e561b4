// Supervision for `npm start`: runs each child in its own process group, restarts a crashed child with
// exponential back-off (logged), and on stop lets every child drain (SIGTERM: workers finish their running jobs,
// queued jobs stay in Redis) before killing whatever is left of its group, so no process outlives the stack.
const { spawn } = require('node:child_process');

const DEFAULT_BACKOFF = { initialMs: 1_000, maxMs: 30_000, resetAfterMs: 60_000 };
/**
 * A child that exits with this status (sysexits' EX_CONFIG, as @sift/queue's CONFIGURATION_EXIT_CODE) cannot start as
 * configured (its port is taken, a setting is invalid): restarting would fail the same way forever, so the stack stops.
 */
const CONFIGURATION_EXIT_CODE = 78;
/** The longest job runs 150 s (the request timeout cap); draining waits for it, plus a margin. */
const DEFAULT_STOP_TIMEOUT_MS = 170_000;

/** The delay before the nth consecutive restart (n from 1): initial, 2×, 4×… capped at maxMs. */
function restartDelayMs(consecutiveCrashes, backoff = DEFAULT_BACKOFF) {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, consecutiveCrashes - 1));
}

function defaultLog(level, message, details = {}) {
  process.stderr.write(`${JSON.stringify({ level, service: 'supervisor', message, ...details })}\n`);
}

function prefixLines(stream, target, prefix) {
  let buffered = '';
  stream.on('data', (chunk) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) target.write(`${prefix} ${line}\n`);
  });
  stream.on('end', () => {
    if (buffered) target.write(`${prefix} ${buffered}\n`);
  });
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Starts the children and keeps them running. Each child spec: { name, command, args, env?, cwd? }.
 * Returns { stop(signal), state(), failed }; stop resolves once every child (and its process group) is gone; failed
 * resolves when a child exited with CONFIGURATION_EXIT_CODE and the others were stopped.
 */
function supervise({ children, log = defaultLog, backoff = DEFAULT_BACKOFF, stopTimeoutMs = DEFAULT_STOP_TIMEOUT_MS, output = { stdout: process.stdout, stderr: process.stderr } }) {
  let stopping = false;
  let resolveFailed;
  /** Resolves (with the child's name) once a child could not start as configured and the stack has stopped. */
  const failed = new Promise((resolve) => (resolveFailed = resolve));
  const supervised = children.map((spec) => ({ spec, child: undefined, startedAt: 0, crashes: 0, restarts: 0, timer: undefined, exited: Promise.resolve() }));

  const start = (entry) => {
    const { spec } = entry;
    // Its own process group: a stop can reach what the child started (Chromium), and a terminal's Ctrl-C reaches
    // only the supervisor, which then drains in order.
    const child = spawn(spec.command, spec.args ?? [], { cwd: spec.cwd, env: spec.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    entry.child = child;
    entry.startedAt = Date.now();
    const prefix = `[${spec.name}]`.padEnd(12);
    prefixLines(child.stdout, output.stdout, prefix);
    prefixLines(child.stderr, output.stderr, prefix);
    entry.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        // Leftovers of the group (a browser the child did not close) go with it.
        killGroup(child.pid, 'SIGKILL');
        resolve();
        if (stopping) return;
        if (code === CONFIGURATION_EXIT_CODE) {
          log('error', `${spec.name} cannot start as configured (its last lines say why); stopping Sift`, { child: spec.name, code });
          void stop('SIGTERM').then(() => resolveFailed({ child: spec.name, code }));
          return;
        }
        const ranMs = Date.now() - entry.startedAt;
        entry.crashes = ranMs >= backoff.resetAfterMs ? 1 : entry.crashes + 1;
        const delayMs = restartDelayMs(entry.crashes, backoff);
        entry.restarts += 1;
        log('error', `${spec.name} exited; restarting`, { child: spec.name, code, signal, ranMs, restartInMs: delayMs, restart: entry.restarts });
        entry.timer = setTimeout(() => {
          entry.timer = undefined;
          if (!stopping) start(entry);
        }, delayMs);
      });
    });
    child.once('error', (error) => log('error', `${spec.name} could not be started`, { child: spec.name, error: error.message }));
  };

  for (const entry of supervised) start(entry);

  const stop = async (signal = 'SIGTERM') => {
    if (stopping) return Promise.all(supervised.map((entry) => entry.exited)).then(() => undefined);
    stopping = true;
    log('info', 'stopping: children finish their running jobs', { signal });
    for (const entry of supervised) {
      clearTimeout(entry.timer);
      const child = entry.child;
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    }
    const deadline = setTimeout(() => {
      for (const entry of supervised) {
        if (entry.child && entry.child.exitCode === null && entry.child.signalCode === null) {
          log('error', `${entry.spec.name} did not stop within ${stopTimeoutMs} ms; killing it`, { child: entry.spec.name });
          killGroup(entry.child.pid, 'SIGKILL');
        }
      }
    }, stopTimeoutMs);
    await Promise.all(supervised.map((entry) => entry.exited));
    clearTimeout(deadline);
    log('info', 'stopped', { signal });
  };

  const state = () => supervised.map((entry) => ({ name: entry.spec.name, pid: entry.child?.pid, restarts: entry.restarts, running: Boolean(entry.child && entry.child.exitCode === null && entry.child.signalCode === null) }));

  return { stop, state, failed };
}

module.exports = { supervise, restartDelayMs, DEFAULT_BACKOFF, DEFAULT_STOP_TIMEOUT_MS, CONFIGURATION_EXIT_CODE };
