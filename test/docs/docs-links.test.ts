import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
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

describe('the links in README.md and docs/', () => {
  const files = docsFiles();

  test('there are documents, and links in them', () => {
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => links(readDoc(file))).length).toBeGreaterThan(50);
  });

  test.each(files)('%s: every relative link and #anchor resolves', (file) => {
    const problems: string[] = [];
    for (const { target, line } of links(readDoc(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf('#');
      const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = path === '' ? file : normalize(join(dirname(file), path));
      const where = `${file}:${line} → ${target}`;
      if (resolved.startsWith('..')) problems.push(`${where}: leaves the project`);
      else if (!existsSync(join(PROJECT_ROOT, resolved))) problems.push(`${where}: no ${relative('.', resolved)}`);
      else if (anchor !== undefined) {
        if (!resolved.endsWith('.md') || statSync(join(PROJECT_ROOT, resolved)).isDirectory()) problems.push(`${where}: an anchor into a file that is not Markdown`);
        else if (!anchors(readDoc(resolved)).has(anchor)) problems.push(`${where}: ${resolved} has no heading #${anchor}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
