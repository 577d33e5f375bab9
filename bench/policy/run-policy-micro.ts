import { compilePolicy, type PolicyPlanInput } from '../../server/policy/compile-policy.js';
import { EMPTY_POLICY } from '../../server/policy/compiled-policy.js';
import { NO_LOOKUPS } from '../../server/protocol/classified-message.js';
import { classifyHttpRequest } from '../../server/protocol/classify-http-request.js';
import type { PolicyShape } from '../../server/protocol/policy-shape.js';
import { decideExchange } from '../../server/sidecar/decide-exchange.js';
import { MCP_REQUEST_HEADERS, mcpRequestBody, MODERN_VERSION } from '../load/mcp-request.js';
import { measure, type MicroResult } from '../micro/run-micro-benchmarks.js';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const MODERN: PolicyShape = { era: 'modern', transport: 'streamable-http', version: MODERN_VERSION };
const LEGACY: PolicyShape = { era: 'legacy', transport: 'streamable-http', version: '2025-06-18' };

function plan(id: number, overrides: Partial<PolicyPlanInput>): PolicyPlanInput {
  return {
    id,
    name: `plan ${id}`,
    scope: { kind: 'era', value: 'legacy' },
    action: 'deny',
    announceDate: '2026-09-01',
    retireDate: '2027-03-01',
    blockNewCallersFrom: null,
    gate: null,
    policyUrl: 'https://example.com/policy',
    brownouts: [],
    exemptions: [],
    cutFrom: Date.parse('2027-03-01T00:00:00Z'),
    knownCallers: new Set(),
    ...overrides,
  };
}

const compile = (...plans: PolicyPlanInput[]) => compilePolicy({ version: 1, plans, supportedVersions: [MODERN_VERSION, '2025-11-25'] }, NOW);

/** `CompiledPolicy.decide` for one request, in the cases the hot path meets, ns per call. */
export function runPolicyMicroBenchmarks(): MicroResult[] {
  const warnInScope = compile(plan(1, { action: 'warn' }));
  const denyOutOfScope = compile(plan(1, { cutFrom: NOW - 86_400_000 }));
  const threePlans = compile(
    plan(1, { cutFrom: NOW - 86_400_000, exemptions: [{ integration: 'partner-a', until: '2027-01-31' }] }),
    plan(2, { scope: { kind: 'transport', value: 'http+sse' }, brownouts: [{ startsAt: NOW + 3_600_000, endsAt: NOW + 7_200_000 }] }),
    plan(3, { scope: { kind: 'version', value: MODERN_VERSION }, action: 'warn' }),
  );
  // The bench request as the proxy sees it, classified once: decideExchange is what the proxy calls.
  const classified = classifyHttpRequest({ method: 'POST', path: '/mcp', headers: { ...MCP_REQUEST_HEADERS, host: '127.0.0.1:8808' }, body: mcpRequestBody(42), bodyTooLarge: false }, NO_LOOKUPS);
  const warnModern = compile(plan(1, { scope: { kind: 'version', value: MODERN_VERSION }, action: 'warn' }));
  // A decision's header count folded in, so the call cannot be dropped.
  return [
    measure('decide: no plan', () => EMPTY_POLICY.decide(MODERN, 'tok_0123456789abcdef', NOW).headers.length),
    measure('decide: warn plan, request in scope (headers)', () => warnInScope.decide(LEGACY, 'tok_0123456789abcdef', NOW).headers.length),
    measure('decide: deny plan, request out of scope', () => denyOutOfScope.decide(MODERN, 'tok_0123456789abcdef', NOW).headers.length),
    measure('decide: three plans (deny, deny, warn in scope)', () => threePlans.decide(MODERN, 'tok_0123456789abcdef', NOW).headers.length),
    measure('decideExchange, bench request: deny plan out of scope', () => decideExchange(denyOutOfScope, classified, 'tok_0123456789abcdef', NOW).decision.headers.length),
    measure('decideExchange, bench request: warn plan in scope', () => decideExchange(warnModern, classified, 'tok_0123456789abcdef', NOW).decision.headers.length),
  ];
}
