import { describe, expect, test } from 'vitest';
import { configJsonSchema, settingKeys } from '../../tools/config-reference.js';
import { codeSpans, docsFiles, prose, readDoc, tableCells } from './markdown.js';

const schema = configJsonSchema();
const KEYS = new Set(settingKeys(schema));
/** Top-level settings that hold others: a dotted name starting with one of them is a setting. */
const GROUPS = new Set(Object.entries(schema.properties ?? {}).filter(([, s]) => s.type === 'object' || s.type === 'array').map(([name]) => name));

/** Names the docs use that start like a group of settings but are something else. */
const NOT_SETTINGS: Readonly<Record<string, string>> = {
  'otel.foldedRequests': 'a field of /healthz',
  'bridge.relaysRefused': 'a field of /healthz',
  'bridge.revoke': 'an action of the audit trail',
};

/** The setting a code span names, if it reads like one: `alerts.scheduled: false` names `alerts.scheduled`. */
function settingName(span: string): string | undefined {
  const name = /^([a-z][A-Za-z0-9]*(?:(?:\.(?:[a-z][A-Za-z0-9]*|\*))|\[\])+)(?:$|[:=\s])/.exec(span)?.[1];
  return name !== undefined && GROUPS.has(name.split(/[.[]/)[0]!) && !Object.hasOwn(NOT_SETTINGS, name) ? name : undefined;
}

function isSetting(name: string): boolean {
  return name.endsWith('.*') ? KEYS.has(name.slice(0, -2)) : KEYS.has(name);
}

describe('reading setting names in the docs', () => {
  test('dotted names under a group of settings, and only those', () => {
    expect(['alerts.digest.schedule', 'otel.maxCallers', 'caps.sessions', 'alerts.scheduled: false', 'identity.*', 'alerts.webhooks[].url'].map(settingName)).toEqual([
      'alerts.digest.schedule',
      'otel.maxCallers',
      'caps.sessions',
      'alerts.scheduled',
      'identity.*',
      'alerts.webhooks[].url',
    ]);
    expect(['policy.lastError', 'gate.backstopDate', 'trend.line', 'probe.peers', 'otel.foldedRequests', 'mcp_sunset.caller', 'server/discover', 'db'].map(settingName)).toEqual(
      Array(8).fill(undefined),
    );
  });

  test('a name is a setting when the schema has it', () => {
    expect(['alerts.digest.schedule', 'identity.*', 'fleet.nodes', 'plans[].key'].map(isSetting)).toEqual([true, true, true, true]);
    expect(['alerts.digest.scheduled', 'caps.session', 'otel.*x'].map(isSetting)).toEqual([false, false, false]);
  });
});

describe('the settings README.md and docs/ name', () => {
  const files = docsFiles();

  test.each(files)('%s: every dotted setting, and every entry of a "setting" column, is in the config schema', (file) => {
    const text = readDoc(file);
    const problems: string[] = [];
    prose(text)
      .split('\n')
      .forEach((line, i) => {
        for (const span of codeSpans(line)) {
          const name = settingName(span);
          if (name !== undefined && !isSetting(name)) problems.push(`${file}:${i + 1}: \`${span}\` is no setting`);
        }
      });
    for (const cell of tableCells(text).filter((c) => c.column === 'setting')) {
      for (const span of codeSpans(cell.text)) {
        const name = /^[A-Za-z][\w.*[\]]*/.exec(span)?.[0];
        if (name === undefined || !isSetting(name)) problems.push(`${file}:${cell.line}: \`${span}\` in a setting column is no setting`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('the docs name settings at all', () => {
    const named = files.flatMap((file) => codeSpans(prose(readDoc(file))).map(settingName)).filter((name) => name !== undefined);
    expect(named.length).toBeGreaterThan(50);
  });
});
