/**
 * Version choice. Pure. Configured lists are ordered best first, so "the highest of advertised ∩
 * configured" is the first configured version the peer advertised: versions are never ordered by
 * comparing their strings ("DRAFT-2026-v1" > "2026-07-28").
 */
import { FIRST_MODERN_VERSION, LEGACY_VERSIONS } from '../../protocol/versions.js';

/** The modern revisions this prober speaks, best first. */
export const DEFAULT_MODERN_VERSIONS: readonly string[] = [FIRST_MODERN_VERSION];

/**
 * The legacy revisions it accepts from a validated `initialize`, best first: the dated releases
 * of the initialize era (pre-release draft labels are recognised as legacy but never offered).
 */
export const DEFAULT_LEGACY_VERSIONS: readonly string[] = [...LEGACY_VERSIONS]
  .filter((version) => /^\d{4}-\d{2}-\d{2}$/.test(version))
  .sort()
  .reverse();

/** The configured versions the peer advertised, in configured (preference) order. */
export function selectVersions(advertised: readonly string[], configured: readonly string[]): string[] {
  const offered = new Set(advertised);
  return configured.filter((version) => offered.has(version));
}

/** Reads a list of version strings; undefined unless it is a non-empty array of strings. */
export function readVersionList(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((v): v is string => typeof v === 'string') ? [...value] : undefined;
}
