/**
 * What a chat would take as markup in a `slack` webhook's text, for tests: Slack's `<…>` control
 * sequences (`<!channel>`, `<@U…>`, `<https://…|label>`), and for Mattermost and Rocket.Chat an `@`
 * mention at the start of a word and a Markdown link or image. Empty when the text is all plain words.
 */
export function slackMarkup(text: string): string[] {
  const controls = text.match(/<[^>\n]*>/g) ?? [];
  const mentions = text.match(/(?<![\p{L}\p{N}])@[\p{L}\p{N}_.-]+/gu) ?? [];
  const links = text.match(/!?\[[^\]\n]*\]\([^)\n]*\)/g) ?? [];
  return [...controls, ...mentions, ...links];
}

/** The text as a reader sees it: Slack's three entities decoded and the unseen word joiners gone. */
export function shownSlackText(text: string): string {
  return text.replaceAll('\u2060', '').replace(/&(amp|lt|gt);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>' })[name]!);
}
