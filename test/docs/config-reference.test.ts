import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { ENV_SETTINGS } from '../../server/config/load-config.js';
import { END_MARKER, REFERENCE_FILE, START_MARKER, buildReference, settingKeys, spliceReference } from '../../tools/config-reference.js';

describe('the configuration reference in docs/configuration.md', () => {
  let reference: string;
  beforeAll(async () => {
    reference = await buildReference();
  }, 120_000);

  test('is what `npm run docs:config` writes today (run it after changing the config schema, a variable or a flag)', () => {
    const document = readFileSync(REFERENCE_FILE, 'utf8');
    expect(document, 'docs/configuration.md is stale: run npm run docs:config').toBe(spliceReference(document, reference));
  });

  test('has a row for every setting, its description and every variable that fills it', () => {
    const keys = settingKeys();
    expect(keys).toEqual(expect.arrayContaining(['upstream', 'caps.sessions', 'alerts.digest.schedule', 'alerts.webhooks[].url', 'otel.maxCallers', 'tls.requestClientCert']));
    for (const key of keys) expect(reference, key).toContain(`\`${key}\``);
    for (const name of [...Object.keys(ENV_SETTINGS), 'MCP_SUNSET_BRIDGE_KEY', 'MCP_SUNSET_BRIDGE_NODE_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME']) {
      expect(reference, name).toContain(`\`${name}\``);
    }
    expect(reference).toMatch(/\| `bridge\.key` \|[^\n]*`MCP_SUNSET_BRIDGE_KEY` \| Seals the HTTP sessions/);
    expect(reference).toMatch(/\| `alerts\.scheduled` \|[^\n]*`--no-alerts` \(serve, demo, dashboard\)/);
    expect(reference).not.toMatch(/\|\s*\|\s*$/m);
  });

  test('keeps the hand-written text around its markers', () => {
    const document = `# Title\n\nintro\n\n${START_MARKER}\nold\n${END_MARKER}\n\nafter\n`;
    expect(spliceReference(document, 'new\n')).toBe(`# Title\n\nintro\n\n${START_MARKER}\nnew\n${END_MARKER}\n\nafter\n`);
    expect(() => spliceReference('# no markers\n', 'new\n')).toThrow(/config-reference:start/);
  });
});
