import { describe, expect, test } from 'vitest';
import { configSchema } from '../../server/config/config-schema.js';
import { codeBlocks, docsFiles, readDoc } from './markdown.js';

const SETTINGS = new Set(Object.keys(configSchema.shape));

/** The docs' JSON blocks that are configuration files (every top-level key a setting), with where they are. */
function configExamples(): { where: string; config: Record<string, unknown> }[] {
  return docsFiles().flatMap((path) =>
    codeBlocks(readDoc(path))
      .filter((block) => block.lang === 'json')
      .flatMap((block) => {
        let value: unknown;
        try {
          // A secret written as … in an example stands for any value.
          value = JSON.parse(block.text.replaceAll('"…"', '"an-example-secret-value"'));
        } catch {
          return [];
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
        const keys = Object.keys(value);
        return keys.length > 0 && keys.every((key) => SETTINGS.has(key)) ? [{ where: `${path}:${block.line}`, config: value as Record<string, unknown> }] : [];
      }),
  );
}

describe('configuration examples in the docs', () => {
  test('there are some, the identity ladder\'s among them', () => {
    expect(configExamples().some((example) => 'identity' in example.config)).toBe(true);
  });

  test.each(configExamples().map((example) => [example.where, example.config] as const))('%s is a configuration the schema accepts', (_where, config) => {
    const parsed = configSchema.safeParse({ node: 'docs-example', ...config });
    expect(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([]);
  });
});
