/**
 * Why a client id is no Client ID Metadata Document URL (draft-ietf-oauth-client-id-metadata-document,
 * "Client Identifier URL"), or undefined when it is one: an `https` URL with a path, no dot segments,
 * no fragment and no user name or password. Read from the text as written, since the URL parser would resolve
 * the dot segments away. Pure.
 */
export function clientIdUrlProblem(clientId: string): string | undefined {
  // The URL parser drops white space and reads a backslash as a slash: text it would change is no id.
  if (/[\s\p{Cc}\\]/u.test(clientId)) return 'has white space, a control character or a backslash';
  const url = URL.parse(clientId);
  if (url === null) return 'not a URL';
  if (url.protocol !== 'https:') return 'not an https URL';
  if (url.username !== '' || url.password !== '') return 'carries a user name or password';
  if (clientId.includes('#')) return 'carries a fragment';
  const path = /^https:\/\/[^/?#]*(\/[^?#]*)?/i.exec(clientId)?.[1] ?? '';
  if (path === '' || path === '/') return 'has no path';
  if (path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'has a dot segment in its path';
  return undefined;
}
