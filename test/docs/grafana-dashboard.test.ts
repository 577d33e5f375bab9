import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { prometheusName, REFUSAL_LABELS } from '../../server/lib/create-metrics.js';
import { NEGOTIATION_METHODS, PLUMBING_METHODS } from '../../server/protocol/work-request.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';
import { useIdleService } from '../support/use-idle-service.js';

interface Panel {
  title: string;
  targets: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync(join(PROJECT_ROOT, 'deploy', 'grafana', 'mcp-sunset.json'), 'utf8')) as { panels: Panel[] };
const expressions = dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ panel: panel.title, expr: target.expr })));

/** Every series name /metrics can serve: each `# TYPE` line's name, and a histogram's three series. */
function servedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

describe('the Grafana dashboard in deploy/grafana', () => {
  const idle = useIdleService();

  test('queries only metric names /metrics serves', async () => {
    const served = servedNames(await (await fetch(new URL('/metrics', idle.service.apiUrl))).text());
    expect(expressions.length).toBeGreaterThan(0);
    for (const { panel, expr } of expressions) {
      const used = [...expr.matchAll(/\b(mcp_[a-z0-9_]+)\b(?!\s*=)/g)].map((m) => m[1]!).filter((name) => !/^mcp_(method_name|protocol_version|sunset_(era|transport|lifecycle_path|outcome|plan|refusal|overflow))$/.test(name));
      expect(used.length, panel).toBeGreaterThan(0);
      for (const name of used) expect(served.has(name), `${panel}: ${name}`).toBe(true);
    }
  });

  test('groups and filters only by labels those metrics carry', () => {
    const labels = new Set([...REFUSAL_LABELS.map(prometheusName), 'le', 'where']);
    for (const { panel, expr } of expressions) {
      const grouped = [...expr.matchAll(/\bby \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(',').map((l) => l.trim()));
      const filtered = [...expr.matchAll(/[{,]\s*([a-z_]+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]!);
      for (const label of [...grouped, ...filtered]) expect(labels.has(label), `${panel}: ${label}`).toBe(true);
    }
  });

  test('its share leaves out the negotiation and plumbing methods, as the dashboard\'s share does', () => {
    const share = expressions.find((e) => e.panel === 'Legacy share of served work requests')!.expr;
    const [, excluded] = /mcp_method_name!~"([^"]*)"/.exec(share)!;
    expect(excluded!.split('|').sort()).toEqual([...NEGOTIATION_METHODS, ...PLUMBING_METHODS].sort());
  });
});
