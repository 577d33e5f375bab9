import { createParser } from 'eventsource-parser';
import { METHOD } from '../protocol/method-names.js';
import { HEADER, LATEST_LEGACY_VERSION } from '../protocol/versions.js';

export interface LegacyAcceptance {
  /** True when the node answered a 2025-era initialize with a result. */
  accepted: boolean;
  /** The version it agreed to, when it did. */
  version: string | null;
  /** Versions a refusal named (-32022 data.supported), when it named any. */
  supported: string[] | null;
  detail: string;
}

function firstMessage(contentType: string, text: string): Record<string, unknown> | undefined {
  const parse = (data: string) => {
    try {
      const value: unknown = JSON.parse(data);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  if (!contentType.startsWith('text/event-stream')) return parse(text);
  let found: Record<string, unknown> | undefined;
  const parser = createParser({ onEvent: (event) => (found ??= parse(event.data)) });
  parser.feed(text);
  return found;
}

/**
 * Asks one HTTP node whether it still serves the legacy era: one initialize, shaped exactly as a
 * 2025 client sends it. This is a fleet diagnostic, not a connection: a session the node mints is
 * ended with DELETE at once, and nothing else is sent.
 */
export async function checkLegacyAcceptance(url: URL, timeoutMs: number): Promise<LegacyAcceptance> {
  const body = { jsonrpc: '2.0', id: 0, method: METHOD.initialize, params: { protocolVersion: LATEST_LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'mcp-sunset-fleet-check', version: '1' } } };
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { accepted: false, version: null, supported: null, detail: `initialize failed: ${(error as Error).message}` };
  }
  const text = await response.text().catch(() => '');
  const sessionId = response.headers.get(HEADER.sessionId);
  if (sessionId !== null) {
    await fetch(url, { method: 'DELETE', headers: { [HEADER.sessionId]: sessionId }, signal: AbortSignal.timeout(timeoutMs) }).catch(() => undefined);
  }
  const message = firstMessage(response.headers.get('content-type') ?? '', text);
  const result = message?.result as Record<string, unknown> | undefined;
  if (response.ok && typeof result?.protocolVersion === 'string') {
    return { accepted: true, version: result.protocolVersion, supported: null, detail: `initialize served at ${result.protocolVersion}` };
  }
  const error = message?.error as { code?: unknown; data?: { supported?: unknown } } | undefined;
  const supported = Array.isArray(error?.data?.supported) && error.data.supported.every((v) => typeof v === 'string') ? (error.data.supported as string[]) : null;
  const code = typeof error?.code === 'number' ? ` ${error.code}` : '';
  return { accepted: false, version: null, supported, detail: `initialize refused: HTTP ${response.status}${code}` };
}
