/**
 * The machine-readable announcement of a retirement: Deprecation (RFC 9745) as a structured-field
 * date, Sunset (RFC 8594) as an HTTP-date, and the policy as the Link with rel="sunset". Pure.
 */

/** An instant as an IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7). */
export function imfFixdate(at: number): string {
  return new Date(at).toUTCString();
}

/** A URI as it may stand inside `<…>` in a Link header: nothing that would end the reference. */
function linkTarget(url: string): string {
  return url.replace(/[<>\s"]/g, (c) => encodeURIComponent(c));
}

/** The header pairs (name, value, …) announcing a plan's retirement. */
export function announceHeaders(plan: { announceAt: number; retireAt: number; policyUrl: string | null }): string[] {
  const headers = ['Deprecation', `@${Math.floor(plan.announceAt / 1000)}`, 'Sunset', imfFixdate(plan.retireAt)];
  if (plan.policyUrl !== null) headers.push('Link', `<${linkTarget(plan.policyUrl)}>; rel="sunset"`);
  return headers;
}
