import type { BridgeComparison, BridgeSetup, BridgeSummary, SetupShapes } from './bridge-report.js';
import type { BridgeSettings } from './bridge-settings.js';
import type { MachineInfo } from '../proxy/bench-report.js';
import { machineLine } from '../support/describe-machine.js';

export interface BridgeReport {
  startedAt: Date;
  elapsedSeconds: number;
  machine: MachineInfo;
  /** 1-minute load average at the start and at the end. */
  load: [number, number];
  code: string;
  autocannonVersion: string;
  settings: BridgeSettings;
  shapes: Record<BridgeSetup, SetupShapes>;
  /** Answers each setup gave in the warm-up before round 1. */
  warmed: Record<BridgeSetup, number>;
  summaries: BridgeSummary[];
  comparisons: BridgeComparison[];
  /** Both sidecars' health at the end: proof that they metered what they passed. */
  health: Record<'sidecar' | 'bridge', Record<string, unknown>>;
}

const LABEL: Record<BridgeSetup, string> = {
  direct: 'A direct: dual-era server',
  bridge: 'B bridge: `serve --bridge` → modern-only server',
  sidecar: 'C sidecar, no bridge → dual-era server',
};
const SHORT: Record<BridgeSetup, string> = { direct: 'A', bridge: 'B', sidecar: 'C' };

const ms = (value: number) => value.toFixed(2);
const signedMs = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
const micros = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(0));
const signedMicros = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(0)}`;
const moreOrLess = (value: number) => `${Math.abs(value).toFixed(0)} µs ${value >= 0 ? 'more' : 'less'}`;

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function shapeLine(setup: BridgeSetup, shapes: SetupShapes): string {
  return `${SHORT[setup]}: initialize ${shapes.initialize.status} \`${shapes.initialize.contentType}\`, ${shapes.sessionId ? 'with' : 'no'} \`Mcp-Session-Id\`; tools/call ${shapes.toolCall.status} \`${shapes.toolCall.contentType}\``;
}

function counters(health: Record<string, unknown>): string {
  const m = (health as { metering?: { events?: number; meteringErrors?: number; droppedEvents?: number; failedFlushes?: number } }).metering;
  return `${m?.events ?? '?'} events metered, ${m?.meteringErrors ?? '?'} metering errors, ${m?.droppedEvents ?? '?'} dropped, ${m?.failedFlushes ?? '?'} failed flushes`;
}

function interpret(report: BridgeReport, rate: number, perRound: number): string[] {
  const pair = (over: BridgeSetup, base: BridgeSetup) => report.comparisons.find((c) => c.over === over && c.base === base)!;
  const [bridge, hop, translation] = [pair('bridge', 'direct'), pair('sidecar', 'direct'), pair('bridge', 'sidecar')];
  const direct = report.summaries.find((s) => s.setup === 'direct')!;
  return [
    `- At ${rate} req/s the bridge path added ${signedMs(bridge.addedOpenP50)} ms at p50 and ${signedMs(bridge.addedOpenP99)} ms at p99 (pooled: ${signedMs(bridge.addedPooledOpenP50)} / ${signedMs(bridge.addedPooledOpenP99)} ms) over the dual-era server answering the legacy client itself; ` +
      `the sidecar hop alone added ${signedMs(hop.addedOpenP50)} / ${signedMs(hop.addedOpenP99)} ms, so the translation and the modern server's leg account for ${signedMs(translation.addedOpenP50)} / ${signedMs(translation.addedOpenP99)} ms; ` +
      `one sequential client got ${bridge.sequentialRatio.toFixed(2)}× direct's request rate through the bridge (${hop.sequentialRatio.toFixed(2)}× through the plain sidecar), and the bridge path cost ${moreOrLess(bridge.addedCpuMicros)} CPU per answer than direct (plain sidecar path: ${moreOrLess(hop.addedCpuMicros)}).`,
    `- Noise: with ${perRound} answers per round at the fixed rate, a round's p99 rests on its slowest ~${Math.max(1, Math.round(perRound / 100))}; direct's own p99 ranged ${ms(direct.openP99Range[0])}–${ms(direct.openP99Range[1])} ms across rounds, and the generator's timer lag (p99 ${ms(direct.sendLagP99)} ms) is inside every open-loop number, so only differences well above the per-round spread are resolved; the p50 differences and the pooled columns are the steadier signal.`,
  ];
}

/** The bridge bench's dated section of bench/RESULTS.md. */
export function formatBridgeResults(report: BridgeReport): string {
  const { settings } = report;
  const rate = settings.openRate;
  const perRound = Math.round(rate * settings.openSeconds);
  const resultRows = report.summaries.map((s) => [
    LABEL[s.setup],
    ms(s.initializeMs),
    ms(s.openP50),
    ms(s.openP99),
    `${ms(s.pooledOpenP50)} / ${ms(s.pooledOpenP99)}`,
    ms(s.openServiceP99),
    ms(s.sequentialP50),
    ms(s.sequentialP99),
    s.sequentialPerSecond.toFixed(0),
    s.maxPerSecond.toFixed(0),
    micros(s.sidecarCpuMicros),
    micros(s.serverCpuMicros),
    String(s.answers),
    String(s.failures),
  ]);
  const comparisonRows = report.comparisons.map((c) => [
    `${SHORT[c.over]} − ${SHORT[c.base]}`,
    signedMs(c.addedOpenP50),
    c.addedOpenP50ByRound.map(signedMs).join(', '),
    signedMs(c.addedOpenP99),
    c.addedOpenP99ByRound.map(signedMs).join(', '),
    `${signedMs(c.addedPooledOpenP50)} / ${signedMs(c.addedPooledOpenP99)}`,
    signedMs(c.addedSequentialP50),
    signedMs(c.addedSequentialP99),
    c.sequentialRatio.toFixed(3),
    c.maxRatio.toFixed(3),
    signedMicros(c.addedCpuMicros),
  ]);
  const orders = ['ABC', 'CBA', 'BCA', 'ACB', 'CAB', 'BAC'].slice(0, Math.min(6, settings.rounds)).join(', ');
  return [
    `## ${report.startedAt.toISOString().replace(/\.\d+Z$/, 'Z')} — the legacy bridge's added latency (bench/bridge/bridge.ts)`,
    '',
    `- Machine: ${machineLine(report.machine)}; shared, and busy with other work during the run: 1-minute load average ${report.load[0].toFixed(1)} at the start, ${report.load[1].toFixed(1)} at the end.`,
    `- Code: ${report.code}.`,
    '- Setups, each server in its own child process, all of it tsc output in plain Node. A: the v2 SDK\'s `createMcpHandler` with its default (dual era: 2025-era requests served on its stateless legacy leg), the demo tools (server/demo/demo-tools.ts), node:http. ' +
      'B: `startService` with `bridge.enabled` and a 64-hex-digit key from `MCP_SUNSET_BRIDGE_KEY` (as `serve --bridge` composes it) in front of the same handler with `legacy: \'reject\'`, which refuses the legacy initialize on its own (checked). ' +
      'C: `startService` without the bridge in front of A\'s server. Both sidecars: a real SQLite file, default config (1 s flush), log level silent.',
    `- Client: per setup and round a fresh legacy Streamable HTTP session, \`initialize\` (2025-11-25, timed) and \`notifications/initialized\`, then \`tools/call\` of \`add\`, every POST with \`MCP-Protocol-Version: 2025-11-25\`, Accept \`application/json, text/event-stream\` and the \`Mcp-Session-Id\` the initialize answer gave, if any; no bearer token; a fresh id per request; every answer's body is checked for the sum (a JSON-RPC error under status 200 counts as a failure).`,
    `- Answer shapes: ${(['direct', 'bridge', 'sidecar'] as const).map((setup) => shapeLine(setup, report.shapes[setup])).join('. ')}.`,
    `- Rounds: ${settings.rounds}, the three setups in turn in every order (${orders}${settings.rounds > 6 ? ', …' : ''}: each order followed by its mirror image); before round 1 every setup warmed with ${settings.maxConnections} connections until ${settings.initialWarmupRequests} answers or ${settings.initialWarmupSeconds} s (A ${report.warmed.direct}, B ${report.warmed.bridge}, C ${report.warmed.sidecar} answers), and ${settings.warmupSeconds} s on one connection before each measurement. ` +
      `Per setup and round: open loop at ${rate} req/s for ${settings.openSeconds} s (${perRound} requests, node:http keep-alive agent, latency from each request's scheduled send time); then one connection sequentially for ${settings.sequentialSeconds} s; then max throughput, ${settings.maxConnections} connections for ${settings.maxSeconds} s (both autocannon ${report.autocannonVersion}, pipelining 1). ` +
      `Cells are medians over rounds; pooled percentiles take every round's answers together (${perRound * settings.rounds} per setup). CPU µs/req: user+system time of each process over the max-throughput phase, divided by its answers.`,
    `- Whole run: ${Math.round(report.elapsedSeconds)} s.`,
    '',
    table(
      ['setup', 'initialize ms', `p50 ms @${rate}/s`, `p99 ms @${rate}/s`, `pooled p50 / p99 ms @${rate}/s`, 'service p99 ms', 'sequential p50 ms', 'sequential p99 ms', 'sequential req/s', `max req/s (${settings.maxConnections} conn.)`, 'sidecar CPU µs/req', 'server CPU µs/req', 'answers', 'failures'],
      resultRows,
    ),
    '',
    table(
      ['added', `p50 ms @${rate}/s`, 'per round', `p99 ms @${rate}/s`, 'per round', 'pooled p50 / p99 ms', 'sequential p50 ms', 'sequential p99 ms', 'sequential req/s ratio', 'max req/s ratio', 'path CPU µs/req'],
      comparisonRows,
    ),
    '',
    'B − A is the bridge path\'s cost to a legacy client against a dual-era server; C − A the sidecar hop alone; B − C what the bridge adds to that hop (its translation, plus the modern server\'s leg in place of the legacy one). Differences and ratios are taken within a round, then the median over rounds; the pooled column subtracts pooled percentiles. Path CPU counts the sidecar and the server process.',
    '',
    `Sidecar counters at the end of the run: C ${counters(report.health.sidecar)}; B ${counters(report.health.bridge)}.`,
    '',
    ...interpret(report, rate, perRound),
    '',
  ].join('\n');
}
