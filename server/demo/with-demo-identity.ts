import type { Config } from '../config/config-schema.js';
import { DEMO_CLIENTS } from './demo-clients.js';
import { DEMO_HISTORY_CALLERS } from './demo-history-callers.js';

type Identity = Config['identity'];

/**
 * The identity settings for a demo run: the operator's, plus a static-map entry naming each demo
 * client that carries an API key after the seeded caller it plays. The operator's entries win.
 */
export function withDemoIdentity(identity: Readonly<Identity>): Identity {
  const demoEntries = DEMO_CLIENTS.flatMap((client) => {
    const name = DEMO_HISTORY_CALLERS.find((caller) => caller.live === client.kind)?.key;
    return client.apiKey === undefined || name === undefined ? [] : [[client.apiKey, name] as const];
  });
  return { ...identity, staticMap: { ...Object.fromEntries(demoEntries), ...identity.staticMap } };
}
