import { decodeJwt } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Dispatcher } from 'undici';
import type { OAuthConfig } from '../config/identity-schema.js';
import { IssuerClient, type IssuerHealth } from './issuer-client.js';
import type { TokenVerdict } from './oauth-identity.js';
import { verifyJwtAccessToken } from './verify-jwt-access-token.js';

export interface OAuthVerifierOptions {
  config: OAuthConfig;
  now?: () => number;
  /** Where requests to the authorization servers go (tests point it at their own agent). */
  dispatcher?: Dispatcher;
}

export interface OAuthHealth {
  issuers: IssuerHealth[];
  /** Tokens whose verdict is remembered now. */
  cachedTokens: number;
  /** Verdicts reached since start, by kind. */
  verified: number;
  rejected: number;
  unavailable: number;
}

export interface OAuthVerifier {
  /** The final verdict on a token known now (verified or rejected), or undefined. Sync: the hot path reads it. */
  verdictOf(token: string): TokenVerdict | undefined;
  /**
   * Starts verifying a token with no verdict yet (once, however many requests carry it) and answers
   * a promise that settles when the verdict is in or `waitMs` has passed, whichever is first;
   * undefined when there is nothing to wait for.
   */
  prepare(token: string): Promise<void> | undefined;
  /** Verifies a token and answers its verdict, without a deadline (tests, and the first use of a new token). */
  verify(token: string): Promise<TokenVerdict>;
  health(): OAuthHealth;
  close(): void;
}

/** A rejected token, or one without `exp`, is remembered this long. */
const REJECTED_TTL_MS = 5 * 60_000;
/** However far away its `exp`, a verdict is taken again after a day. */
const MAX_VERIFIED_TTL_MS = 24 * 3_600_000;
/** Longer tokens are not verified (Node refuses headers past 16 KB by default anyway). */
const MAX_TOKEN_CHARS = 16 * 1024;
/** What the remembered verdicts may hold, tokens included, and what one verdict costs beside its token (estimated). */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;
const VERDICT_OVERHEAD_BYTES = 256;

/**
 * Verifies bearer tokens against the configured issuers, off the request path: each token is
 * verified (or introspected) once, its verdict remembered until its `exp` (a rejection for five
 * minutes), keys are fetched in the background, and an issuer that does not answer is not asked
 * again for a while, so it costs no request anything. Only a verified token names anyone.
 */
export function createOAuthVerifier(options: OAuthVerifierOptions): OAuthVerifier {
  const { config } = options;
  const now = options.now ?? Date.now;
  const clientOptions = { timeoutMs: config.timeoutMs, keysRefreshMs: config.keysRefreshMs, now, ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }) };
  const clients = config.issuers.map((issuer) => new IssuerClient(issuer, clientOptions));
  // Keyed by Map, never by a plain object: an `iss` is the client's text.
  const byIssuer = new Map(clients.map((client) => [client.config.issuer, client]));
  const introspecting = clients.filter((client) => client.config.introspection !== undefined);
  // Bounded in bytes too: a token is the client's text, up to 16 KB, and made-up ones are remembered (rejected) as well.
  const verdicts = new LRUCache<string, TokenVerdict>({ max: config.cacheSize, maxSize: MAX_CACHE_BYTES, sizeCalculation: (_verdict, token) => token.length + VERDICT_OVERHEAD_BYTES });
  const inFlight = new Map<string, Promise<TokenVerdict>>();
  const counts = { verified: 0, rejected: 0, unavailable: 0 };
  for (const client of clients) if (client.verifiesJwts()) client.start();

  async function introspectWithAny(token: string): Promise<TokenVerdict> {
    let unavailable: TokenVerdict | undefined;
    for (const client of introspecting) {
      const verdict = await client.introspect(token);
      if (verdict.kind === 'verified') return verdict;
      if (verdict.kind === 'unavailable') unavailable ??= verdict;
    }
    if (unavailable !== undefined) return unavailable;
    return { kind: 'rejected', reason: introspecting.length === 0 ? 'not-a-token' : 'inactive' };
  }

  async function verifyJwt(token: string, client: IssuerClient): Promise<TokenVerdict> {
    const keys = client.keys() ?? (await client.keysReady());
    if (keys === undefined) {
      if (client.config.introspection !== undefined) return client.introspect(token);
      return { kind: 'unavailable', why: client.health().lastError ?? 'the issuer\'s keys are not known yet' };
    }
    let verdict = await verifyJwtAccessToken(token, client.config, keys, now());
    if (verdict.kind === 'no-key') {
      // A key rotated in since the last fetch: fetch the set again (not more often than every 30 s).
      const refetch = client.refetchForUnknownKey();
      if (refetch !== undefined) {
        await refetch;
        verdict = await verifyJwtAccessToken(token, client.config, client.keys() ?? keys, now());
      }
    }
    return verdict.kind === 'no-key' ? { kind: 'rejected', reason: 'bad-signature' } : verdict;
  }

  async function judge(token: string): Promise<TokenVerdict> {
    if (token.length > MAX_TOKEN_CHARS) return { kind: 'rejected', reason: 'malformed' };
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      // Not a signed JWT (opaque, or encrypted): only its issuer can say what it is.
      return introspectWithAny(token);
    }
    if (typeof issuer !== 'string') return introspectWithAny(token);
    const client = byIssuer.get(issuer);
    if (client === undefined) return { kind: 'rejected', reason: 'unknown-issuer' };
    if (!client.verifiesJwts()) return client.config.introspection === undefined ? { kind: 'rejected', reason: 'not-a-token' } : client.introspect(token);
    return verifyJwt(token, client);
  }

  function remember(token: string, verdict: TokenVerdict): void {
    counts[verdict.kind] += 1;
    if (verdict.kind === 'unavailable') return;
    const left = verdict.kind === 'verified' && verdict.identity.expiresAt !== undefined ? verdict.identity.expiresAt - now() : REJECTED_TTL_MS;
    if (left <= 0) return;
    verdicts.set(token, verdict, { ttl: Math.min(left, MAX_VERIFIED_TTL_MS) });
  }

  function verify(token: string): Promise<TokenVerdict> {
    const known = verdicts.get(token);
    if (known !== undefined) return Promise.resolve(known);
    let running = inFlight.get(token);
    if (running === undefined) {
      running = judge(token)
        .catch((error: unknown): TokenVerdict => ({ kind: 'unavailable', why: error instanceof Error ? error.message : String(error) }))
        .then((verdict) => {
          remember(token, verdict);
          inFlight.delete(token);
          return verdict;
        });
      inFlight.set(token, running);
    }
    return running;
  }

  return {
    verdictOf: (token) => verdicts.get(token),
    prepare(token) {
      if (verdicts.has(token)) return undefined;
      const running = verify(token);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, config.waitMs);
      });
      return Promise.race([running.then(() => undefined), deadline]).finally(() => clearTimeout(timer));
    },
    verify,
    health: () => ({ issuers: clients.map((client) => client.health()), cachedTokens: verdicts.size, ...counts }),
    close() {
      for (const client of clients) client.stop();
    },
  };
}
