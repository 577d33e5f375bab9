/**
 * The `probe` command's readable output: one row per peer, the evidence behind each verdict, and
 * the merged tool catalogue when asked for. Pure.
 */
import type { CatalogueResult } from '../catalogue/merge-catalogues.js';
import type { PeerReport } from '../probe.js';

function table(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
}

function retryAdvice(retryAfterMs: number | null): string {
  return retryAfterMs === null ? '' : `; the server asked to be tried again in ${Math.ceil(retryAfterMs / 1000)} s`;
}

export function formatVerdictTable(reports: readonly PeerReport[], catalogue: CatalogueResult | undefined): string {
  const rows = [
    ['peer', 'transport', 'era', 'state', 'version', 'evidence', 'enable with'],
    ...reports.map(({ verdict: v }) => [v.peer, v.transport, v.era ?? '-', v.state, v.version ?? '-', `${v.evidence.class} ${v.evidence.code}`, v.enableWith ?? '-']),
  ];
  const lines = [...table(rows), '', ...reports.map(({ verdict: v }) => `${v.peer} (${v.target}): ${v.evidence.detail}${retryAdvice(v.retryAfterMs)}`)];
  if (catalogue !== undefined) {
    lines.push('');
    const problems = reports.flatMap(({ verdict, tools }) => {
      if (tools === null) return [];
      if (!tools.ok) return [`${verdict.peer}: its tools were left out: ${tools.detail}`];
      return tools.truncated === null ? [] : [`${verdict.peer}: its list was cut short (${tools.truncated})`];
    });
    if (!catalogue.ok) {
      lines.push(`tools: none merged: ${catalogue.error}`);
    } else if (catalogue.tools.length === 0) {
      lines.push(`tools (collision policy ${catalogue.policy}): none`);
    } else {
      lines.push(`tools (collision policy ${catalogue.policy}):`);
      lines.push(...table([['name', 'peer', 'tool'], ...catalogue.tools.map((t) => [t.name, t.peer, t.tool])]).map((line) => `  ${line}`));
    }
    lines.push(...problems);
  }
  return `${lines.join('\n')}\n`;
}
