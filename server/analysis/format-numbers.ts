/**
 * Numbers as a product manager reads them in a status sentence. Pure and total: every input,
 * NaN included, formats to some string rather than throwing.
 */

/** 0.08123 → "8.12%". */
export function formatPercent(share: number): string {
  return `${formatSigned(share * 100, 2)}%`;
}

/** Epoch ms → "2027-03-01" (UTC). */
export function formatDay(at: number): string {
  return Number.isFinite(at) && Math.abs(at) <= 8.64e15 ? new Date(at).toISOString().slice(0, 10) : 'never';
}

/** Epoch ms → "2081" (UTC), and "the far future" past what Date can hold. */
export function formatYear(at: number): string {
  return Number.isFinite(at) && Math.abs(at) <= 8.64e15 ? String(new Date(at).getUTCFullYear()) : 'the far future';
}

/** "p = 0.41", "p = 0.0042", "p < 0.001": two significant digits where two decimals would say 0.00. */
export function formatPValue(p: number): string {
  if (!Number.isFinite(p)) return 'p unknown';
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p < 0.01 ? p.toPrecision(2) : p.toFixed(2)}`;
}

/** A change of share in percentage points: −0.027 → "−2.70 pp". */
export function formatPoints(change: number): string {
  return `${formatSigned(change * 100, 2)} pp`;
}

/** A share slope per week in percentage points: −0.0002 → "−0.02 pp/week". */
export function formatPointsPerWeek(slopePerWeek: number): string {
  return `${formatPoints(slopePerWeek)}/week`;
}

/** Fixed decimals with a typographic minus, and no "−0.00". */
function formatSigned(value: number, digits: number): string {
  if (!Number.isFinite(value)) return String(value);
  const text = Math.abs(value).toFixed(digits);
  return value < 0 && Number(text) !== 0 ? `−${text}` : text;
}
