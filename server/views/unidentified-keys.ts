/** Keys that stand for callers nobody can phone: no trusted identity, or past the cap. */
export const UNIDENTIFIED_KEYS: ReadonlySet<string> = new Set(['anonymous', 'other']);
