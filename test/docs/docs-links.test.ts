import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../support/spawn-cli.js';
import { anchors, docsFiles, githubSlug, links, readDoc } from './markdown.js';

describe('githubSlug', () => {
  test.each([
    ['Quick start', 'quick-start'],
    ['What is counted, and how', 'what-is-counted-and-how'],
    ['Deciding: share, trend, projection and plan status', 'deciding-share-trend-projection-and-plan-status'],
    ['Middleware: metering and enforcing inside an Express app', 'middleware-metering-and-enforcing-inside-an-express-app'],
    ['`GET /api/v1/traffic`', 'get-apiv1traffic'],
    ['Dry run: `GET /api/v1/plans/:id/dry-run`', 'dry-run-get-apiv1plansiddry-run'],
    ['`alerts.digest`', 'alertsdigest'],
    ['Mann–Kendall & Theil–Sen', 'mannkendall--theilsen'],
    ['A *fleet* on **one** Postgres', 'a-fleet-on-one-postgres'],
    ['See [the bridge](bridge.md) now', 'see-the-bridge-now'],
    ['snake_case stays', 'snake_case-stays'],
    ['Ünïcode Lëtters', 'ünïcode-lëtters'],
    ['What is it?', 'what-is-it'],
  ])('%j → %j', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  test('numbers a repeated heading as GitHub does', () => {
    expect([...anchors('# Once\n\n## Once\n\n### Once\n\n```\n# Once\n```\n')]).toEqual(['once', 'once-1', 'once-2']);
  });
});

/** What is wrong with the relative links of `markdown`, a document at `file` (a path from the project root). */
function linkProblems(file: string, markdown: string): string[] {
  const problems: string[] = [];
  for (const { target, line } of links(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const hash = target.indexOf('#');
    const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = path === '' ? file : normalize(join(dirname(file), path));
    const where = `${file}:${line} → ${target}`;
    if (resolved.startsWith('..')) problems.push(`${where}: leaves the project`);
    else if (resolved !== file && !existsSync(join(PROJECT_ROOT, resolved))) problems.push(`${where}: there is no ${resolved}`);
    else if (anchor !== undefined) {
      const text = resolved === file ? markdown : resolved.endsWith('.md') && !statSync(join(PROJECT_ROOT, resolved)).isDirectory() ? readDoc(resolved) : undefined;
      if (text === undefined) problems.push(`${where}: an anchor into a file that is not Markdown`);
      else if (!anchors(text).has(anchor)) problems.push(`${where}: ${resolved} has no heading #${anchor}`);
    }
  }
  return problems;
}

test('a link to a missing file or heading is found, and code is not read for links', () => {
  const doc = ['# Here', '', '[a](nope.md), [b](api.md#no-such), [c](#missing), ![d](../../x.png)', '', '[ok](api.md#get-healthz) [ok](#here) [ok](../deploy/)', '', '`[code](nope.md)`', '', '```', '[fenced](nope.md)', '```'].join('\n');
  expect(linkProblems('docs/example.md', doc)).toEqual([
    'docs/example.md:3 → nope.md: there is no docs/nope.md',
    'docs/example.md:3 → api.md#no-such: docs/api.md has no heading #no-such',
    'docs/example.md:3 → #missing: docs/example.md has no heading #missing',
    'docs/example.md:3 → ../../x.png: leaves the project',
  ]);
});

describe('the links in README.md and docs/', () => {
  const files = docsFiles();

  test('there are documents, and links in them', () => {
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => links(readDoc(file))).length).toBeGreaterThan(50);
  });

  test.each(files)('%s: every relative link and #anchor resolves', (file) => {
    expect(linkProblems(file, readDoc(file))).toEqual([]);
  });
});
