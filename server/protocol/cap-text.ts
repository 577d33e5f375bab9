/**
 * A client-chosen string cut to a length, as it may be held or stored. Pure. V8 keeps a slice as a
 * view into the whole original string, so a plain `slice` of a megabyte-long name would keep the
 * megabyte alive for as long as the prefix is held; the round trip makes an exact standalone copy.
 */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return JSON.parse(JSON.stringify(text.slice(0, maxChars))) as string;
}
