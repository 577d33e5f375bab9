/**
 * The stdio transport of the era state machine: one process at a time, respawned on demand so
 * that an `initialize` after a timeout or a close always goes to a fresh process.
 */
import type { EraChannel } from '../attempt/era-channel.js';
import type { StdioTarget } from '../targets/peer-config.js';
import { StdioProcess } from './stdio-process.js';

export function createStdioChannel(target: StdioTarget): EraChannel {
  let current = new StdioProcess(target);
  return {
    transport: 'stdio',
    request: (message, _shape, timeoutMs) => current.request(message, timeoutMs),
    async notify(message) {
      current.write(message);
      return null;
    },
    async restart() {
      await current.kill();
      current = new StdioProcess(target);
    },
    isDead: () => !current.alive,
    close: () => current.close(),
  };
}
