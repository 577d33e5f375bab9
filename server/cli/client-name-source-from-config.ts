import { readFileSync } from 'node:fs';
import type { ClientNameSource } from '../alerts/refresh-client-names.js';
import type { OAuthConfig } from '../config/identity-schema.js';
import { clientIdUrlProblem } from '../identity/client-id-url-problem.js';
import { fetchClientName } from '../identity/fetch-client-name.js';
import { clientIdOfCallerKey } from '../identity/oauth-caller-key.js';
import type { Logger } from '../lib/create-logger.js';

/**
 * The fetcher of OAuth applications' names as `identity.oauth.clientNames` configures it, or
 * undefined when its CA file cannot be read: that is logged, and callers are shown by their URL
 * alone, rather than the service refusing to start (and to meter) over a display name.
 */
export function clientNameSourceFromConfig(oauth: OAuthConfig, logger: Logger): ClientNameSource | undefined {
  const settings = oauth.clientNames;
  let ca: string | undefined;
  if (settings.caFile !== undefined) {
    try {
      ca = readFileSync(settings.caFile, 'utf8');
    } catch (error) {
      logger.error({ err: error, setting: 'identity.oauth.clientNames.caFile' }, 'the CA file cannot be read; client names are not fetched');
      return undefined;
    }
  }
  const options = { timeoutMs: oauth.timeoutMs, allowPrivateAddresses: settings.allowPrivateAddresses, ...(ca === undefined ? {} : { ca }) };
  return {
    urlOf(key) {
      const clientId = clientIdOfCallerKey(key);
      return clientId !== undefined && clientIdUrlProblem(clientId) === undefined ? clientId : undefined;
    },
    fetch: (url, signal) => fetchClientName(url, signal === undefined ? options : { ...options, signal }),
  };
}
