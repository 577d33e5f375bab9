import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { Dispatcher } from 'undici';
import type { OAuthIssuerConfig } from '../config/identity-schema.js';
import { discoverIssuerMetadata, type IssuerMetadata } from './discover-issuer-metadata.js';
import { fetchJson, FetchProblem } from './fetch-json.js';
import { introspectAccessToken } from './introspect-access-token.js';
import type { TokenVerdict } from './oauth-identity.js';

export interface IssuerClientOptions {
  timeoutMs: number;
  keysRefreshMs: number;
  now: () => number;
  dispatcher?: Dispatcher;
}

/** One issuer as /healthz shows it. */
export interface IssuerHealth {
  issuer: string;
  /** Signing keys known now; null before the first fetch succeeded (or when the issuer publishes none). */
  keys: number | null;
  keysFetchedAt: number | null;
  /** False while requests to it fail: tokens that need it are not waited for until it answers again. */
  reachable: boolean;
  lastError: string | null;
}

/** A token signed by a key not in the set fetches the set again, at most this often. */
export const UNKNOWN_KEY_REFETCH_MS = 30_000;
const MAX_JWKS_BYTES = 512 * 1024;
const MAX_BACKOFF_MS = 60_000;
/** Introspections under way at once per issuer, and waiting for a place: past both, a token is not asked about now. */
const MAX_INTROSPECTIONS = 16;
const MAX_QUEUED_INTROSPECTIONS = 1_024;

/**
 * What the sidecar knows of one authorization server: its metadata, its signing keys (fetched in
 * the background and on an unknown key), and whether it answers. A server that fails is left alone
 * for a growing while (1 s doubling to 60 s), so while it is down no request waits on it.
 */
export class IssuerClient {
  private metadata: IssuerMetadata | undefined;
  private keySet: JWTVerifyGetKey | undefined;
  private keyCount: number | null = null;
  private keysFetchedAt: number | null = null;
  private lastKeysAttempt = Number.NEGATIVE_INFINITY;
  private keysFetch: Promise<void> | undefined;
  private backoffUntil = 0;
  private backoffMs = 0;
  private lastError: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private introspecting = 0;
  private readonly queued: (() => void)[] = [];

  constructor(readonly config: OAuthIssuerConfig, private readonly options: IssuerClientOptions) {}

  /** Fetches the keys now and every keysRefreshMs after, in the background. */
  start(): void {
    void this.fetchKeys();
    this.timer = setInterval(() => void this.fetchKeys(), this.options.keysRefreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  reachable(): boolean {
    return this.options.now() >= this.backoffUntil;
  }

  /** The keys known now, if any. */
  keys(): JWTVerifyGetKey | undefined {
    return this.keySet;
  }

  /** Settles when a fetch of the keys under way (or started now, when none ever succeeded) ends. */
  async keysReady(): Promise<JWTVerifyGetKey | undefined> {
    if (this.keySet === undefined && this.keysFetch === undefined && this.reachable()) void this.fetchKeys();
    await this.keysFetch;
    return this.keySet;
  }

  /** Fetches the keys again for a token signed by a key not in the set; undefined when fetched too recently. */
  refetchForUnknownKey(): Promise<void> | undefined {
    if (this.keysFetch !== undefined) return this.keysFetch;
    if (this.options.now() - this.lastKeysAttempt < UNKNOWN_KEY_REFETCH_MS || !this.reachable()) return undefined;
    return this.fetchKeys();
  }

  /** True when the issuer's tokens that are JWTs can be checked here with its keys. */
  verifiesJwts(): boolean {
    return this.config.jwksUri !== undefined || this.metadata === undefined || this.metadata.jwksUri !== undefined;
  }

  /**
   * Asks the issuer about a token, a bounded number at a time: a flood of made-up tokens must not
   * turn the sidecar into a flood against the authorization server.
   */
  async introspect(token: string): Promise<TokenVerdict> {
    if (!this.reachable()) return { kind: 'unavailable', why: this.lastError ?? 'unreachable' };
    if (this.introspecting >= MAX_INTROSPECTIONS) {
      if (this.queued.length >= MAX_QUEUED_INTROSPECTIONS) return { kind: 'unavailable', why: 'too many tokens waiting to be introspected' };
      await new Promise<void>((resolve) => this.queued.push(resolve));
    }
    this.introspecting += 1;
    try {
      return await this.introspectNow(token);
    } finally {
      this.introspecting -= 1;
      this.queued.shift()?.();
    }
  }

  private async introspectNow(token: string): Promise<TokenVerdict> {
    if (!this.reachable()) return { kind: 'unavailable', why: this.lastError ?? 'unreachable' };
    let endpoint = this.config.introspection?.endpoint;
    if (endpoint === undefined) {
      const metadata = await this.loadMetadata();
      if (metadata === undefined) return { kind: 'unavailable', why: this.lastError ?? 'no metadata' };
      endpoint = metadata.introspectionEndpoint;
      if (endpoint === undefined) return { kind: 'unavailable', why: 'the issuer\'s metadata names no introspection endpoint' };
    }
    const verdict = await introspectAccessToken(token, this.config, endpoint, { timeoutMs: this.options.timeoutMs, now: this.options.now(), ...this.dispatcher() });
    if (verdict.kind === 'unavailable') this.failed(verdict.why);
    else this.succeeded();
    return verdict;
  }

  health(): IssuerHealth {
    // Whether its last request was answered, not whether the back-off lets it be asked: between two attempts a server that is down is still down.
    return { issuer: this.config.issuer, keys: this.keyCount, keysFetchedAt: this.keysFetchedAt, reachable: this.lastError === null, lastError: this.lastError };
  }

  private fetchKeys(): Promise<void> {
    this.keysFetch ??= this.doFetchKeys().finally(() => {
      this.keysFetch = undefined;
    });
    return this.keysFetch;
  }

  private async doFetchKeys(): Promise<void> {
    this.lastKeysAttempt = this.options.now();
    let uri = this.config.jwksUri;
    if (uri === undefined) {
      const metadata = await this.loadMetadata();
      if (metadata === undefined) return;
      uri = metadata.jwksUri;
      // Introspection alone identifies this issuer's tokens.
      if (uri === undefined) return;
    }
    try {
      const answer = await fetchJson(uri, { timeoutMs: this.options.timeoutMs, maxBytes: MAX_JWKS_BYTES, ...this.dispatcher() });
      const set = answer.json as JSONWebKeySet | undefined;
      if (answer.status !== 200 || typeof set !== 'object' || set === null || !Array.isArray(set.keys)) throw new FetchProblem(`keys answered HTTP ${answer.status} without a key set`);
      this.keySet = createLocalJWKSet(set);
      this.keyCount = set.keys.length;
      this.keysFetchedAt = this.options.now();
      this.succeeded();
    } catch (error) {
      // The keys known stay in use: a key set does not go stale because its server is down.
      this.failed(error instanceof Error ? error.message : String(error));
    }
  }

  private async loadMetadata(): Promise<IssuerMetadata | undefined> {
    if (this.metadata !== undefined) return this.metadata;
    try {
      this.metadata = await discoverIssuerMetadata(this.config.issuer, { timeoutMs: this.options.timeoutMs, ...this.dispatcher() });
      return this.metadata;
    } catch (error) {
      this.failed(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  private succeeded(): void {
    this.backoffMs = 0;
    this.backoffUntil = 0;
    this.lastError = null;
  }

  private failed(why: string): void {
    this.lastError = why;
    this.backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(1_000, this.backoffMs * 2));
    this.backoffUntil = this.options.now() + this.backoffMs;
  }

  private dispatcher(): { dispatcher?: Dispatcher } {
    return this.options.dispatcher === undefined ? {} : { dispatcher: this.options.dispatcher };
  }
}
