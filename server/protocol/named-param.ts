/**
 * The request methods whose target has a name of its own, and the param that carries it: the
 * modern transport mirrors it into `Mcp-Name` (26:basic/transports/streamable-http.mdx §Request Metadata). A `Map`, because the
 * method it is asked about is whatever a client sent, and a plain object would answer for
 * `constructor` or `__proto__` too.
 */
export const NAMED_PARAM: ReadonlyMap<string, 'name' | 'uri'> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
]);
