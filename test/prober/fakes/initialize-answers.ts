import type { ChecklistItem } from '../../../server/prober/judge/check-initialize-result.js';

/** A valid answer to `initialize` with this id. */
export const goodInitializeAnswer = (id: unknown = 1, version = '2025-11-25') => ({
  jsonrpc: '2.0',
  id,
  result: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'legacy', version: '1.0.0' } },
});

type Answer = ReturnType<typeof goodInitializeAnswer>;

/** One broken answer per checklist item. */
export const FAILING_ITEMS: Record<ChecklistItem, (answer: Answer) => Record<string, unknown>> = {
  jsonrpc: (a) => ({ ...a, jsonrpc: '1.0' }),
  id: (a) => ({ ...a, id: String(a.id) }),
  'result-only': (a) => ({ ...a, error: { code: -32603, message: 'also an error' } }),
  'protocol-version': (a) => ({ ...a, result: { ...a.result, protocolVersion: '2026-07-28' } }),
  capabilities: (a) => ({ ...a, result: { ...a.result, capabilities: [] } }),
  'server-name': (a) => ({ ...a, result: { ...a.result, serverInfo: { name: '', version: '1.0.0' } } }),
  'server-version': (a) => ({ ...a, result: { ...a.result, serverInfo: { name: 'legacy' } } }),
};
