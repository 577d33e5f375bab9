/**
 * Whether a plan's cut is in force, and if its usage gate holds it, why. Pure.
 * The cut waits while any non-exempt identifiable caller used the scope in the last `quietDays`, or
 * the plan's share is above `maxShare`; the backstop ends the wait. Anonymous and overflowed traffic
 * holds no gate: nobody can be asked to move it, so only the share speaks for it.
 */
import { DAY_MS } from './compute-week-start.js';
import { exemptionEndsAt } from './plan-clock.js';

export const GATE_KINDS = [
  'no-gate', // the cut comes at the retire date, whatever the usage
  'before-retire', // the gate is judged from the retire date; `holdingCallers` says who would hold it today
  'holding', // past the retire date, usage holds the cut until the gate opens or the backstop passes
  'open', // past the retire date and quiet enough: the cut is in force
  'backstop-reached', // the backstop passed: the cut is in force whatever the usage
] as const;
export type GateKind = (typeof GATE_KINDS)[number];

export interface GateInputs {
  retireAt: number;
  /** The gate's backstop; null when the plan has no gate. */
  backstopAt: number | null;
  maxShare: number | null;
  quietDays: number;
  exemptions: readonly { integration: string; until: string }[];
  /** Identifiable callers' last use of the scope: the start of the last UTC day with served work in it. */
  lastUse: ReadonlyMap<string, number>;
  /** The plan's share over the last `quietDays`, or null when nothing was served. */
  share: number | null;
}

export interface HoldingCaller {
  integration: string;
  lastUse: number;
}

export interface GateState {
  kind: GateKind;
  /** True when, at `now`, every non-exempt request in scope is refused (under `deny`). */
  cutInForce: boolean;
  /**
   * When the cut starts as far as is known at `now`: the retire date, or the backstop while the gate
   * holds (or would hold, were the retire date today), so a policy compiled just before the retire
   * date never cuts for the moments until it is compiled again.
   */
  cutFrom: number;
  /** Non-exempt identifiable callers active in the last quiet days, most recent first. */
  holdingCallers: HoldingCaller[];
  /** True when the share is above the gate's maxShare. */
  shareAboveMax: boolean;
  /** The state in one sentence, for the dashboard and alerts. */
  words: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(2)}%`;
}

export function computeGateState(inputs: GateInputs, now: number): GateState {
  const { retireAt, backstopAt } = inputs;
  if (backstopAt === null) {
    const cutInForce = now >= retireAt;
    return { kind: 'no-gate', cutInForce, cutFrom: retireAt, holdingCallers: [], shareAboveMax: false, words: cutInForce ? 'No gate: the cut is in force since the retire date.' : 'No gate: the cut comes at the retire date.' };
  }
  const quietSince = now - inputs.quietDays * DAY_MS;
  const exempt = new Set(inputs.exemptions.filter((e) => exemptionEndsAt(e.until) > now).map((e) => e.integration));
  const holdingCallers = [...inputs.lastUse]
    // A day row covers the whole day: a caller seen on it was active until its end.
    .filter(([integration, lastUse]) => !exempt.has(integration) && lastUse + DAY_MS > quietSince)
    .map(([integration, lastUse]) => ({ integration, lastUse }))
    .sort((a, b) => b.lastUse - a.lastUse || a.integration.localeCompare(b.integration));
  const shareAboveMax = inputs.maxShare !== null && inputs.share !== null && inputs.share > inputs.maxShare;
  const holds = holdingCallers.length > 0 || shareAboveMax;
  const reasons = [
    ...(holdingCallers.length > 0 ? [`${plural(holdingCallers.length, 'identifiable caller')} used the scope in the last ${plural(inputs.quietDays, 'day')}`] : []),
    ...(shareAboveMax ? [`the share ${percent(inputs.share!)} is above ${percent(inputs.maxShare!)}`] : []),
  ].join(' and ');
  if (now >= backstopAt) return { kind: 'backstop-reached', cutInForce: true, cutFrom: holds ? backstopAt : retireAt, holdingCallers, shareAboveMax, words: holds ? `The backstop passed: the cut is in force although ${reasons}.` : 'The backstop passed: the cut is in force.' };
  if (now < retireAt) {
    return { kind: 'before-retire', cutInForce: false, cutFrom: holds ? backstopAt : retireAt, holdingCallers, shareAboveMax, words: holds ? `Judged from the retire date; today it would hold: ${reasons}.` : 'Judged from the retire date; today it would open: the scope is quiet.' };
  }
  if (holds) return { kind: 'holding', cutInForce: false, cutFrom: backstopAt, holdingCallers, shareAboveMax, words: `The gate holds the cut: ${reasons}. The backstop ends the wait.` };
  return { kind: 'open', cutInForce: true, cutFrom: retireAt, holdingCallers, shareAboveMax, words: `The gate is open: no identifiable caller used the scope in the last ${plural(inputs.quietDays, 'day')}; the cut is in force.` };
}
