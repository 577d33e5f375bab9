/**
 * The public surface of `mcp-sunset/prober`: a downgrade-safe MCP era prober.
 *
 *   import { probe } from 'mcp-sunset/prober';
 *   const verdict = await probe({ name: 'docs', target: { kind: 'http', url: 'https://example.com/mcp' } });
 *
 * Everything else under server/prober/ is internal and may change.
 */
export { probe, probeCatalogue, probePeers, mergeReports, type CatalogueReport, type PeerReport } from './probe.js';
export type { ProbeOptions } from './probe-options.js';
export { DEFAULT_POLICY, describeTarget, type HttpTarget, type PeerConfig, type PeerPolicy, type PeerTarget, type StdioTarget } from './targets/peer-config.js';
export { createEraCache, type CachedEra, type CacheDropReason, type EraCache } from './attempt/era-cache.js';
export { mergeCatalogues, COLLISION_POLICIES, type CatalogueEntry, type CatalogueResult, type Collision, type CollisionPolicy, type PeerTools } from './catalogue/merge-catalogues.js';
export type { ToolInfo, ToolListing, ToolPageLimits } from './catalogue/collect-tools.js';
export { parseTarget, namePeers } from './targets/parse-target.js';
export { splitCommandLine } from './targets/split-command-line.js';
export { DEFAULT_LEGACY_VERSIONS, DEFAULT_MODERN_VERSIONS } from './judge/select-versions.js';
export type { ClientInfo } from './wire/probe-messages.js';
export type { Evidence, EvidenceClass, ProbedEra, ProbeVerdict, SentMessage, VerdictState } from './verdict.js';
