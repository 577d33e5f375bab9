/**
 * A span written as operators write it on a command line: whole numbers with a unit each, largest
 * first, as in `90s`, `30m`, `24h`, `7d` or `1d12h`. Pure; answers undefined for anything else
 * (no fractions, signs, spaces or repeated units), so a typo is refused rather than guessed at.
 */
const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 } as const;
const PATTERN = /^(?:(\d{1,6})d)?(?:(\d{1,6})h)?(?:(\d{1,6})m)?(?:(\d{1,6})s)?$/;

export function parseDuration(text: string): number | undefined {
  const match = PATTERN.exec(text);
  if (match === null || text === '') return undefined;
  const [, d, h, m, s] = match;
  return Number(d ?? 0) * UNIT_MS.d + Number(h ?? 0) * UNIT_MS.h + Number(m ?? 0) * UNIT_MS.m + Number(s ?? 0) * UNIT_MS.s;
}

/** The span in the largest units that write it exactly: 90 000 ms is `1m30s`. */
export function formatDuration(ms: number): string {
  let rest = Math.floor(ms / 1000) * 1000;
  let text = '';
  for (const [unit, size] of Object.entries(UNIT_MS)) {
    const count = Math.floor(rest / size);
    if (count > 0) text += `${count}${unit}`;
    rest -= count * size;
  }
  return text === '' ? '0s' : text;
}
