import type { ChildProcess } from 'node:child_process';

/**
 * The next IPC message of one type from a benchmark child, rejected when the child exits first or
 * stays silent past the timeout. Listeners are removed whichever way it ends.
 */
export function nextReply<R extends { type: string }, T extends R['type']>(child: ChildProcess, type: T, timeoutMs: number): Promise<Extract<R, { type: T }>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onExit = (code: number | null, signal: string | null) => {
      done();
      reject(new Error(`child ${child.pid} exited (${code ?? signal}) before ${type}`));
    };
    const onMessage = (reply: R) => {
      if (reply.type !== type) return;
      done();
      resolve(reply as Extract<R, { type: T }>);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`child ${child.pid} sent no ${type} in time`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
