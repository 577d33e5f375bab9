import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  name: string;
  /** Share of the busy (non-idle) sampled time, in percent. */
  selfPercent: number;
  /** Share of sampled time spent in it or in anything it called. */
  totalPercent: number;
}

function frameName(node: ProfileNode, root: string): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url === '' ? '' : ` ${url.replace(/^file:\/\//, '').replace(root, '')}:${lineNumber + 1}`;
  return `${functionName || '(anonymous)'}${where}`;
}

/**
 * Self and inclusive time per function from a V8 .cpuprofile, merged over every place a function
 * appears in the call tree (recursion counted once), so the list reads as "where did the time go".
 */
export function summarizeCpuProfile(path: string, root: string): HotSpot[] {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  // Idle time would dilute every share by however long the process waited between phases.
  const idle = profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').reduce((sum, node) => sum + (selfMicros.get(node.id) ?? 0), 0);
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0) - idle;

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const subtree = new Map<number, number>();
  const sizeOf = (node: ProfileNode): number => {
    const known = subtree.get(node.id);
    if (known !== undefined) return known;
    const size = (selfMicros.get(node.id) ?? 0) + (node.children ?? []).reduce((sum, id) => sum + sizeOf(byId.get(id)!), 0);
    subtree.set(node.id, size);
    return size;
  };
  const walk = (node: ProfileNode, onStack: Set<string>) => {
    const name = frameName(node, root);
    self.set(name, (self.get(name) ?? 0) + (selfMicros.get(node.id) ?? 0));
    const outermost = !onStack.has(name);
    if (outermost) inclusive.set(name, (inclusive.get(name) ?? 0) + sizeOf(node));
    if (outermost) onStack.add(name);
    for (const id of node.children ?? []) walk(byId.get(id)!, onStack);
    if (outermost) onStack.delete(name);
  };
  walk(profile.nodes[0]!, new Set());

  return [...inclusive.keys()].map((name) => ({
    name,
    selfPercent: (100 * (self.get(name) ?? 0)) / total,
    totalPercent: (100 * (inclusive.get(name) ?? 0)) / total,
  }));
}
