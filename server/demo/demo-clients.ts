import type { Era } from '../protocol/vocabulary.js';
import type { DemoClientKind } from './run-demo-session.js';

export interface DemoClient {
  kind: DemoClientKind;
  era: Extract<Era, 'legacy' | 'modern'>;
  token: string;
  /** Sent in the API-key header; the demo maps it to a name, so one caller shows the static map at work. */
  apiKey?: string;
  /** Rounds of tools/list, echo and add per session. */
  rounds: number;
}

/**
 * The demo's live callers, one per era/transport combination worth watching. Each has its own
 * bearer token so the sidecar sees four integrations; legacy sessions are short (one round), as
 * a batch job's are.
 */
export const DEMO_CLIENTS: readonly DemoClient[] = [
  { kind: 'legacy-http', era: 'legacy', token: 'demo-token-acme-legacy', rounds: 1 },
  { kind: 'legacy-sse', era: 'legacy', token: 'demo-token-globex-sse', apiKey: 'demo-key-crm-sync', rounds: 1 },
  { kind: 'modern-pin', era: 'modern', token: 'demo-token-initech-modern', rounds: 3 },
  { kind: 'modern-auto', era: 'modern', token: 'demo-token-umbrella-auto', rounds: 3 },
];
