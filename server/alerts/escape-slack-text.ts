/**
 * Text for the `text` of a `slack` webhook, shown as written: Slack reads it as mrkdwn, Mattermost and
 * Rocket.Chat (which take the same body) as Markdown. Pure; applied to the whole of every sentence sent,
 * so a value a caller chose (a client name, a version, a method, a key) can neither mention nor link.
 * - `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`, Slack's documented escaping: no `<!channel>`,
 *   `<@U…>` or `<https://…|label>`, and no line that reads as a `>` quote. A bare URL stays a link.
 * - Line breaks become a space and other control and format characters (bidirectional overrides,
 *   zero-width ones) are dropped: a value cannot start a line of its own or read as other text.
 * - A word joiner (U+2060, never shown) follows an `@` that starts a word and separates `](`, so the
 *   Markdown readers see no mention (`@channel`, `@all`) and no link or image. An e-mail address keeps its `@`.
 */
const LINE_BREAKING = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
const UNSHOWN = /[\p{Cc}\p{Cf}\p{Cs}]/gu;
const ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const WORD_JOINER = '\u2060';

export function escapeSlackText(text: string): string {
  return text
    .replace(LINE_BREAKING, ' ')
    .replace(UNSHOWN, '')
    .replace(/[&<>]/g, (c) => ENTITY[c]!)
    .replace(/(?<![\p{L}\p{N}])@/gu, `@${WORD_JOINER}`)
    .replaceAll('](', `]${WORD_JOINER}(`);
}
