import { bucketStart } from '../lib/time-bucket.js';
import { isKnownMethod } from '../protocol/method-names.js';
import { durationBucket, OPERATION_DURATION_BOUNDS } from '../protocol/otel-attributes.js';
import { isLegacyServed, isLegacyWorkServed, isServed } from '../protocol/served.js';
import { isKnownVersion } from '../protocol/versions.js';
import { classifyRequest, isWorkRequest } from '../protocol/work-request.js';
import { HeavyLabels } from './heavy-labels.js';
import { NO_VERSION, OVERFLOW_LABEL, type ClaimCell, type IntegrationSighting, type PersonSighting, type TallyBatch, type TallyCell, type TrafficLabels } from './tally-cell.js';
import { claimedClientOf, type ClaimedClient } from './claimed-client.js';

/** Where claims past the cap are counted: `other`, of the kind they claimed. */
const OTHER_CLAIM_ID = '\u0000other\u0000';

/**
 * Caller sources a client cannot mint at will: an operator's header, map or name, an issuer's
 * verified token, a CA's certificate. These callers are capped apart from bearer fingerprints
 * (one per token, free to make up), so a flood of random tokens never competes with them.
 */
export const VERIFIED_CALLER_SOURCES: ReadonlySet<string> = new Set(['gateway-header', 'static-map', 'oauth', 'mtls-subject', 'configured-name']);

/** The one caller with a fixed name: nobody named it. */
const ANONYMOUS = 'anonymous';

/**
 * How long the caps weigh values over. A minute, the cells' own bucket: long enough that a caller
 * or method with steady traffic is seen in every window (so it is never released), short enough
 * that room held by junk returns within two minutes of its last event.
 */
export const CAP_WINDOW_MS = 60_000;

export interface TallyOptions {
  node: string;
  now: () => number;
  /** Distinct cells held between flushes before free-text labels are folded into `other`. */
  maxCells?: number;
  /**
   * Distinct unknown callers (per pool: verified sources, and bearer fingerprints), methods and
   * versions named at once; past it the lightest are counted as `other` (see HeavyLabels). Known
   * revisions and methods, and `anonymous`, are always named.
   */
  maxIntegrations?: number;
  maxMethods?: number;
  maxVersions?: number;
  /** The window the caps weigh values over (default CAP_WINDOW_MS). */
  capWindowMs?: number;
  /** Distinct people (caller, day, path, subject) held between flushes; past it, newcomers are not counted as people. */
  maxPeople?: number;
  /** Distinct claimed clients (name and version) kept as claimed; newcomers past it are counted as `other`. */
  maxClaims?: number;
}

export interface TallyEntry {
  labels: Omit<TrafficLabels, 'version'> & { version: string | null };
  integrationSource: string;
  clientInfo: { name: string; version: string } | undefined;
  claimMismatch: boolean;
  /** A plan in dry run would have refused it: let through, and counted beside its real outcome. */
  wouldBlock?: boolean;
  /** A request's duration in seconds, when the meter timed it. */
  seconds?: number;
  /** For a refused message, the plan that refused it and the cause (brownout, block-new, cut). */
  refusal?: { plan: number; cause: string };
  /** The person behind the caller's credential, as a keyed digest, when a verified one named them. */
  subject?: string;
  /** True for a caller no mechanism named: its served work describes the unknown base. */
  unnamed?: boolean;
  /** Its User-Agent, read when its client claims nothing by clientInfo. */
  userAgent?: string | undefined;
}

/** Refusals of one cell by one plan for one cause: what `blocked` does not say by itself. */
export interface RefusalCell {
  /** The cell's labels, as filed (capped like its counts). */
  labels: TrafficLabels;
  plan: number;
  cause: string;
  count: number;
}

/** The durations of one cell's timed requests, as histogram buckets (bounds: OPERATION_DURATION_BOUNDS). */
export interface DurationCell {
  /** The cell's labels, as filed (capped like its counts). */
  labels: TrafficLabels;
  counts: number[];
  sum: number;
  count: number;
}

export interface TallyStats {
  /** Events added since start. */
  events: number;
  /** Events whose method, version or integration was folded into `other` by a cap. */
  overflowedEvents: number;
  /** Of those, events whose caller the callers cap counted as `other` (one event may be in several of these). */
  overflowedCallerEvents: number;
  /** Of those, events whose version the versions cap (or its length) counted as `other`. */
  overflowedVersionEvents: number;
  /** Of those, events whose method the methods cap (or its length) counted as `other`. */
  overflowedMethodEvents: number;
  /** Of those, events the cells cap folded: a flush window already held `maxCells` cells. */
  overflowedCellEvents: number;
  /** Events held in memory, not yet handed to a flush. */
  pendingEvents: number;
  cells: number;
  /** People not counted because a flush window already held `maxPeople` of them. */
  overflowedPeople: number;
}

/**
 * In-memory aggregation of observations into per-minute cells. Adding is a map increment, so the
 * proxied request never waits on storage; every bound is explicit so hostile traffic (random
 * methods, versions, tokens) costs bounded memory and lands in `other` instead of being lost.
 */
export class Tally {
  private cells = new Map<string, TallyCell>();
  private sightings = new Map<string, IntegrationSighting>();
  // Beside the cells, under the same keys, so they are bounded as the cells are; held apart so the
  // batches the store and the spool take are unchanged.
  private durations = new Map<string, DurationCell>();
  private drainedDurations: DurationCell[] = [];
  // The same for refusals: one per cell, plan and cause (a handful of plans, three causes).
  private refusals = new Map<string, RefusalCell>();
  private drainedRefusals: RefusalCell[] = [];
  // A person counts once per caller, day and path: the set is the batch's, bounded like the cells.
  private people = new Map<string, PersonSighting>();
  // Claimed client (kind, name, version) → its cells of the window.
  private claims = new Map<string, ClaimCell[]>();
  private readonly claimNames: HeavyLabels;
  private readonly maxPeople: number;
  private overflowedPeople = 0;
  private readonly methods: HeavyLabels;
  private readonly versions: HeavyLabels;
  // Two pools, each of `maxIntegrations`: see VERIFIED_CALLER_SOURCES.
  private readonly verifiedCallers: HeavyLabels;
  private readonly fingerprints: HeavyLabels;
  private readonly maxCells: number;
  private readonly capWindowMs: number;
  // Where the caps' current window ends; the first add starts one.
  private capWindowEnd = Number.NEGATIVE_INFINITY;
  private events = 0;
  private overflowed = 0;
  private overflowedCallers = 0;
  private overflowedVersions = 0;
  private overflowedMethods = 0;
  private overflowedCells = 0;
  private pending = 0;

  constructor(private readonly options: TallyOptions) {
    this.maxCells = options.maxCells ?? 50_000;
    this.maxPeople = options.maxPeople ?? 100_000;
    this.capWindowMs = options.capWindowMs ?? CAP_WINDOW_MS;
    this.claimNames = new HeavyLabels(options.maxClaims ?? 256);
    this.methods = new HeavyLabels(options.maxMethods ?? 256);
    this.versions = new HeavyLabels(options.maxVersions ?? 64);
    this.verifiedCallers = new HeavyLabels(options.maxIntegrations ?? 5_000);
    this.fingerprints = new HeavyLabels(options.maxIntegrations ?? 5_000);
  }

  add(entry: TallyEntry, at: number = this.options.now()): void {
    const { labels } = entry;
    // Windows follow the clock of the adds; an add a little out of order stays in the current one.
    if (at >= this.capWindowEnd) this.rollCapWindow(at);
    const version = labels.version ?? NO_VERSION;
    const admittedIntegration = this.admitCaller(labels.integration, entry.integrationSource);
    // Negotiation and plumbing methods are a closed set the share tells apart from work: never folded.
    const requestClass = classifyRequest(labels.kind, labels.method);
    const fixedMethod = requestClass === 'negotiation' || requestClass === 'plumbing';
    // Invariant 11: caps fold the unknown, never the known. Known methods and revisions take no room.
    const knownMethod = fixedMethod || isKnownMethod(labels.method);
    const knownVersion = version === NO_VERSION || isKnownVersion(version);
    let method = knownMethod || this.methods.admit(labels.method) ? labels.method : OVERFLOW_LABEL;
    let versionLabel = knownVersion || this.versions.admit(version) ? version : OVERFLOW_LABEL;
    let integration = admittedIntegration ? labels.integration : OVERFLOW_LABEL;
    // Which cap folded what, for /healthz; taken before the cells cap, which is reported apart.
    const methodCapped = method !== labels.method;
    const versionCapped = versionLabel !== version;
    let cellsCapped = false;
    const minute = bucketStart(at, 'minute');
    let key = cellKey(minute, labels.era, labels.transport, labels.reason, versionLabel, method, labels.kind, labels.outcome, integration);
    let cell = this.cells.get(key);
    if (cell === undefined && this.cells.size >= this.maxCells) {
      // Closed-vocabulary labels (era, transport, reason, outcome, a known method or revision) stay
      // exact: the share and a plan scoped to a version depend on them, and they are a bounded set.
      cellsCapped = true;
      integration = OVERFLOW_LABEL;
      if (!knownVersion) versionLabel = OVERFLOW_LABEL;
      if (!knownMethod) method = OVERFLOW_LABEL;
      key = cellKey(minute, labels.era, labels.transport, labels.reason, versionLabel, method, labels.kind, labels.outcome, integration);
      cell = this.cells.get(key);
    }
    if (methodCapped || versionCapped || !admittedIntegration || cellsCapped) {
      this.overflowed += 1;
      if (methodCapped) this.overflowedMethods += 1;
      if (versionCapped) this.overflowedVersions += 1;
      if (!admittedIntegration) this.overflowedCallers += 1;
      if (cellsCapped) this.overflowedCells += 1;
    }
    if (cell === undefined) {
      cell = { ...labels, version: versionLabel, method, integration, minute, node: this.options.node, count: 0, mismatchCount: 0, wouldBlockCount: 0 };
      this.cells.set(key, cell);
    }
    cell.count += 1;
    if (entry.claimMismatch) cell.mismatchCount += 1;
    if (entry.wouldBlock === true) cell.wouldBlockCount = (cell.wouldBlockCount ?? 0) + 1;
    if (entry.seconds !== undefined) this.time(key, cell, entry.seconds);
    if (entry.refusal !== undefined) this.markRefusal(key, cell, entry.refusal);
    this.events += 1;
    this.pending += 1;
    // A caller folded only by the cells cap is still a known caller: keep its sighting current.
    // Only served legacy work makes it a legacy caller: a refused probe or a handshake does not.
    if (admittedIntegration) this.sight(labels.integration, entry, isLegacyWorkServed(labels), at);
    // People use a caller through the work it serves them; a caller folded into `other` has no people of its own.
    if (entry.subject !== undefined && integration !== OVERFLOW_LABEL && isWorkRequest(labels.kind, labels.method) && isServed(labels.outcome)) {
      this.countPerson(entry.subject, { ...labels, version: versionLabel, integration }, at);
    }
    if (entry.unnamed === true && isWorkRequest(labels.kind, labels.method) && isServed(labels.outcome)) this.countClaim(claimedClientOf(entry.clientInfo, entry.userAgent), labels, at);
  }

  /** Whether a caller is counted under its own name: `anonymous` always, others by their pool's cap. */
  private admitCaller(integration: string, source: string): boolean {
    if (source === ANONYMOUS && integration === ANONYMOUS) return true;
    return (VERIFIED_CALLER_SOURCES.has(source) ? this.verifiedCallers : this.fingerprints).admit(integration);
  }

  private rollCapWindow(at: number): void {
    // Every window that passed ends at once: a value idle through the gap is released, as it should be.
    this.methods.roll();
    this.versions.roll();
    this.verifiedCallers.roll();
    this.fingerprints.roll();
    this.claimNames.roll();
    this.capWindowEnd = (Math.floor(at / this.capWindowMs) + 1) * this.capWindowMs;
  }

  private countClaim(claim: ClaimedClient, labels: TallyEntry['labels'], at: number): void {
    const day = bucketStart(at, 'day');
    const era = isLegacyServed(labels.era, labels.outcome) ? 'legacy' : labels.era;
    // Claims are the client's text: past the cap on distinct ones (name and version) they fold into
    // `other`, so a flood of made-up names costs bounded memory here and bounded rows in the store.
    const id = `${claim.kind}\u0000${claim.name}\u0000${claim.version}`;
    const known = claim.kind === 'none' || this.claimNames.admit(id);
    const cellsId = known ? id : `${OTHER_CLAIM_ID}${claim.kind}`;
    const cells = this.claims.get(cellsId) ?? this.newClaimCells(cellsId);
    // One claim's cells in a window are one per day and era: a few, found by a scan.
    for (const cell of cells) {
      if (cell.day === day && cell.era === era) {
        cell.count += 1;
        return;
      }
    }
    cells.push({ day, node: this.options.node, era, kind: claim.kind, name: known ? claim.name : OVERFLOW_LABEL, version: known ? claim.version : '', count: 1 });
  }

  private newClaimCells(id: string): ClaimCell[] {
    const cells: ClaimCell[] = [];
    this.claims.set(id, cells);
    return cells;
  }

  private countPerson(subject: string, labels: TrafficLabels, at: number): void {
    const day = bucketStart(at, 'day');
    const era = isLegacyServed(labels.era, labels.outcome) ? 'legacy' : labels.era;
    // The subject is a fixed-length digest and the other parts capped labels: none can forge a separator.
    const key = `${day}\u0000${labels.integration}\u0000${era}\u0000${labels.transport}\u0000${labels.version}\u0000${subject}`;
    if (this.people.has(key)) return;
    if (this.people.size >= this.maxPeople) {
      this.overflowedPeople += 1;
      return;
    }
    this.people.set(key, { day, integration: labels.integration, era, transport: labels.transport, version: labels.version, subject });
  }

  /** Hands over everything held and starts afresh; the durations of the drained cells wait for `takeDurations`. */
  drain(): TallyBatch {
    const batch: TallyBatch = { cells: [...this.cells.values()], integrations: [...this.sightings.values()] };
    if (this.people.size > 0) batch.people = [...this.people.values()];
    this.people = new Map();
    if (this.claims.size > 0) batch.claims = [...this.claims.values()].flat();
    this.claims = new Map();
    this.drainedDurations = [...this.durations.values()];
    this.durations = new Map();
    this.drainedRefusals = [...this.refusals.values()];
    this.refusals = new Map();
    this.cells = new Map();
    this.sightings = new Map();
    this.pending = 0;
    return batch;
  }

  /** The durations of the cells the last drain handed over (once: a second call answers none). */
  takeDurations(): DurationCell[] {
    const taken = this.drainedDurations;
    this.drainedDurations = [];
    return taken;
  }

  /** The refusals of the cells the last drain handed over (once: a second call answers none). */
  takeRefusals(): RefusalCell[] {
    const taken = this.drainedRefusals;
    this.drainedRefusals = [];
    return taken;
  }

  private markRefusal(key: string, cell: TallyCell, refusal: { plan: number; cause: string }): void {
    // The plan is an id the policy compiled and the cause a closed word: neither is the client's text.
    const refusalKey = `${key}\u0000${refusal.plan}\u0000${refusal.cause}`;
    let marked = this.refusals.get(refusalKey);
    if (marked === undefined) {
      marked = { labels: labelsOf(cell), plan: refusal.plan, cause: refusal.cause, count: 0 };
      this.refusals.set(refusalKey, marked);
    }
    marked.count += 1;
  }

  private time(key: string, cell: TallyCell, seconds: number): void {
    let timed = this.durations.get(key);
    if (timed === undefined) {
      timed = { labels: labelsOf(cell), counts: new Array<number>(OPERATION_DURATION_BOUNDS.length + 1).fill(0), sum: 0, count: 0 };
      this.durations.set(key, timed);
    }
    timed.counts[durationBucket(seconds)]! += 1;
    timed.sum += seconds;
    timed.count += 1;
  }

  stats(): TallyStats {
    return {
      events: this.events,
      overflowedEvents: this.overflowed,
      overflowedCallerEvents: this.overflowedCallers,
      overflowedVersionEvents: this.overflowedVersions,
      overflowedMethodEvents: this.overflowedMethods,
      overflowedCellEvents: this.overflowedCells,
      pendingEvents: this.pending,
      cells: this.cells.size,
      overflowedPeople: this.overflowedPeople,
    };
  }

  private sight(key: string, entry: TallyEntry, legacy: boolean, at: number): void {
    const known = this.sightings.get(key);
    if (known === undefined) {
      this.sightings.set(key, {
        key,
        source: entry.integrationSource,
        firstSeen: at,
        lastSeen: at,
        lastLegacySeen: legacy ? at : undefined,
        clientInfo: entry.clientInfo,
      });
      return;
    }
    known.firstSeen = Math.min(known.firstSeen, at);
    known.lastSeen = Math.max(known.lastSeen, at);
    if (legacy) known.lastLegacySeen = Math.max(known.lastLegacySeen ?? at, at);
    if (entry.clientInfo !== undefined) known.clientInfo = entry.clientInfo;
  }
}

function labelsOf({ era, transport, reason, version, method, kind, outcome, integration }: TallyCell): TrafficLabels {
  return { era, transport, reason, version, method, kind, outcome, integration };
}

function cellKey(minute: number, era: string, transport: string, reason: string, version: string, method: string, kind: string, outcome: string, integration: string): string {
  return `${minute}\u0000${era}\u0000${transport}\u0000${reason}\u0000${version}\u0000${method}\u0000${kind}\u0000${outcome}\u0000${integration}`;
}
