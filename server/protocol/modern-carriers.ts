/**
 * Which scopes of a retirement carry modern traffic. Pure. A plan that refuses one of these refuses
 * modern clients, which cannot fall back: the operator must mean it.
 */
import { isLegacyVersion } from './versions.js';
import type { Transport } from './vocabulary.js';

/**
 * The transports modern clients use: Streamable HTTP (the only modern HTTP transport; HTTP+SSE
 * was removed before the modern era) and stdio.
 */
export const MODERN_TRANSPORTS: ReadonlySet<Transport> = new Set<Transport>(['streamable-http', 'stdio']);

/** True when refusing everything in this scope refuses modern requests too. */
export function scopeCarriesModern(scope: { kind: string; value: string }): boolean {
  switch (scope.kind) {
    case 'transport':
      return MODERN_TRANSPORTS.has(scope.value as Transport);
    case 'version':
      return !isLegacyVersion(scope.value);
    default:
      return false;
  }
}
