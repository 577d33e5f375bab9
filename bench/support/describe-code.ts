import { execFileSync } from 'node:child_process';

/** Which code was measured: the commit, and whether server/ differed from it (others edit as we run). */
export function describeCode(repoDir: string): string {
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', repoDir, ...args], { encoding: 'utf8' }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    // From the top of the tree: callers pass bench/, where a plain `server` would name bench/server.
    const dirty = git('status', '--porcelain', '--', ':(top)server') !== '';
    return `commit ${commit}${dirty ? ' plus uncommitted changes in server/' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
