// patches/ holds fixes to dependencies, applied by `npm install` (patch-package). These tests fail when a patch is not
// applied (a fresh install that skipped it, or a new version).

// ioredis' reply parser ships no type declarations: the part of its constructor and method this test uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RedisParser = require('redis-parser') as new (options: {
  returnBuffers: boolean;
  returnReply: (reply: Buffer) => void;
  returnError: (error: Error) => void;
}) => { execute(chunk: Buffer): void };

/** Timers that keep this process alive (an unref'd timer is not listed). */
function timersHoldingTheProcess(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

describe('redis-parser as patched for the queues', () => {
  // A reply larger than the parser's buffer pool grows the pool, and a module-wide 50 ms interval shrinks it by a tenth
  // a tick: for a result of a few hundred kB, seconds after the last read. The patch unrefs that interval, so a process
  // (a Jest worker, a CLI) whose connections are closed exits then instead of when the pool is small again.
  it('reads a reply larger than its buffer pool without a timer that keeps the process alive', () => {
    const replies: Buffer[] = [];
    const parser = new RedisParser({
      // As ioredis configures it.
      returnBuffers: true,
      returnReply: (reply) => replies.push(reply),
      returnError: (error) => {
        throw error;
      },
    });
    const value = Buffer.alloc(512 * 1024, 'a');
    const reply = Buffer.concat([Buffer.from(`$${value.length}\r\n`), value, Buffer.from('\r\n')]);
    const before = timersHoldingTheProcess();
    // In chunks, as a socket delivers a large reply: the parser joins them in its pool.
    for (let offset = 0; offset < reply.length; offset += 64 * 1024) parser.execute(reply.subarray(offset, offset + 64 * 1024));
    expect(replies).toHaveLength(1);
    expect(replies[0].equals(value)).toBe(true);
    expect(timersHoldingTheProcess()).toBe(before);
  });
});
