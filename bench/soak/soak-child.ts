/**
 * Entry of the soak's sidecar child: `node --expose-gc soak-child.js '<SoakChildOptions JSON>'`.
 * Unlike serve-child.ts it keeps its database on stop, because the soak reads it afterwards and
 * restarts on it after a SIGKILL.
 */
import { startService } from '../../server/cli/start-service.js';
import { loadConfig } from '../../server/config/load-config.js';
import { createLogger } from '../../server/lib/create-logger.js';
import type { SoakChildOptions, SoakReply, SoakRequest } from './soak-messages.js';

const options = JSON.parse(process.argv[2]!) as SoakChildOptions;
const config = loadConfig({
  flags: {
    listen: '127.0.0.1:0',
    dashboard: '127.0.0.1:0',
    db: options.db,
    node: 'soak',
    logLevel: 'silent',
    flushIntervalMs: options.flushIntervalMs,
    maxBodyBytes: options.maxBodyBytes,
  },
});
const service = await startService({ config, upstream: new URL(options.upstream), logger: createLogger('silent') });
const send = (reply: SoakReply) => process.send?.(reply);

process.on('message', (request: SoakRequest) => {
  if (request.type === 'memory') {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (request.gc && gc !== undefined) gc();
    const usage = process.memoryUsage();
    send({ type: 'memory', rssBytes: usage.rss, heapUsedBytes: usage.heapUsed });
  }
  if (request.type === 'stop') {
    void service.stop().finally(() => {
      send({ type: 'stopped' });
      process.exit(0);
    });
  }
});
// An orphaned child (driver crashed) must not keep its ports open.
process.on('disconnect', () => void service.stop().finally(() => process.exit(0)));
send({ type: 'ready', url: service.sidecarUrl.href, apiUrl: service.apiUrl.href });
