/**
 * The Streamable HTTP transport of the era state machine. Modern requests carry
 * `MCP-Protocol-Version` and `Mcp-Method` mirroring the body; the legacy `initialize` carries
 * neither, exactly like a 2025 client; later legacy requests carry the negotiated version and the
 * session id the `initialize` answer minted. The session is ended with DELETE on close.
 */
import { METHOD } from '../../protocol/method-names.js';
import { HEADER } from '../../protocol/versions.js';
import type { EraChannel, MessageShape } from '../attempt/era-channel.js';
import { exchangeHttp } from './exchange-http.js';
import { userHeaders, type HttpChannelSettings } from './http-channel-settings.js';
import { openHttpSseChannel } from './http-sse-channel.js';
import type { HttpTarget } from '../targets/peer-config.js';
import type { OutgoingMessage } from '../wire/probe-messages.js';

const CLOSE_TIMEOUT_MS = 2000;

export function createHttpChannel(target: HttpTarget, settings: HttpChannelSettings): EraChannel {
  const url = new URL(target.url);
  let sessionId: string | null = null;

  const headersFor = (message: OutgoingMessage, shape: MessageShape): Record<string, string> => {
    const headers: Record<string, string> = {
      ...userHeaders(target),
      [HEADER.contentType]: 'application/json',
      [HEADER.accept]: 'application/json, text/event-stream',
    };
    if (shape.era === 'modern') {
      headers[HEADER.protocolVersion] = shape.version;
      headers[HEADER.method] = message.method;
    } else if (shape.version !== null) {
      headers[HEADER.protocolVersion] = shape.version;
      if (sessionId !== null) headers[HEADER.sessionId] = sessionId;
    }
    return headers;
  };

  const post = (message: OutgoingMessage, shape: MessageShape, timeoutMs: number) =>
    exchangeHttp({
      url,
      method: 'POST',
      headers: headersFor(message, shape),
      body: JSON.stringify(message),
      timeoutMs,
      maxRedirects: settings.maxRedirects,
      maxBodyBytes: settings.maxBodyBytes,
      expectId: 'id' in message ? message.id : undefined,
    });

  return {
    transport: 'streamable-http',
    async request(message, shape, timeoutMs) {
      const observation = await post(message, shape, timeoutMs);
      if (message.method === METHOD.initialize && observation.kind === 'http') sessionId = observation.response.sessionId;
      return observation;
    },
    notify: (message, shape, timeoutMs) => post(message, shape, timeoutMs),
    async restart() {
      sessionId = null;
    },
    isDead: () => false,
    openHttpSse: (timeoutMs) => openHttpSseChannel(target, { ...settings, timeoutMs }),
    async close() {
      if (sessionId === null) return;
      const headers = { ...userHeaders(target), [HEADER.sessionId]: sessionId };
      sessionId = null;
      await exchangeHttp({ url, method: 'DELETE', headers, timeoutMs: CLOSE_TIMEOUT_MS, maxRedirects: 0, maxBodyBytes: 64 * 1024, expectId: undefined });
    },
  };
}
