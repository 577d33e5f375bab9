/**
 * Reads from a JSON-RPC body only the members classification looks at, without building the rest.
 * Pure. The answer is a sparse copy of what `JSON.parse` would give: the same top-level shape (one
 * object, a batch array, anything else), and in each message only `method`, `id`, `result`,
 * `error`, and the `params` members read to classify (`protocolVersion`, `clientInfo`, `_meta`'s
 * version and clientInfo, `requestId`, `name`, `uri`). Members follow JSON.parse's rules: the last of
 * duplicate keys wins, escaped keys are decoded, numbers have the double `JSON.parse` gives. Values
 * it does not keep become `null`, which every reader treats as "not the type looked for", just as
 * it treats the object or array `JSON.parse` would have given; `result` and `error` keep only
 * their presence, which is all classification asks of them.
 * Text it does not vouch for (malformed, or nested deeper than it tracks) answers undefined: the
 * caller then parses it whole. It never answers a value `JSON.parse` would not have agreed with.
 */
import { JsonSkipper, UNSURE } from './json-skipper.js';
import { META_CLIENT_INFO, META_PROTOCOL_VERSION } from './versions.js';

/** What is kept of a member: its value when a scalar, its presence, or the wanted members of an object. */
type Want = 'scalar' | 'presence' | Members;
type Members = readonly { name: string; want: Want }[];

const CLIENT_INFO: Members = [{ name: 'name', want: 'scalar' }, { name: 'version', want: 'scalar' }];
const META: Members = [{ name: META_PROTOCOL_VERSION, want: 'scalar' }, { name: META_CLIENT_INFO, want: CLIENT_INFO }];
const PARAMS: Members = [
  { name: 'protocolVersion', want: 'scalar' },
  { name: 'clientInfo', want: CLIENT_INFO },
  { name: '_meta', want: META },
  { name: 'requestId', want: 'scalar' },
  { name: 'name', want: 'scalar' },
  { name: 'uri', want: 'scalar' },
];
const MESSAGE: Members = [
  { name: 'method', want: 'scalar' },
  { name: 'id', want: 'scalar' },
  { name: 'params', want: PARAMS },
  { name: 'result', want: 'presence' },
  { name: 'error', want: 'presence' },
];

const QUOTE = 0x22;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COLON = 0x3a;
const BACKSLASH = '\\';

/**
 * Shorter slices are copied by V8; a longer one would be a view keeping the whole body alive for
 * as long as a method, id or client name is held, so it is decoded into a string of its own.
 */
const SHORTEST_SHARED_SLICE = 13;

const UNSURE_SIGNAL = new Error('unsure');

class Scanner {
  pos = 0;
  private readonly skipper: JsonSkipper;
  constructor(readonly text: string) {
    this.skipper = new JsonSkipper(text);
  }

  private fail(): never {
    throw UNSURE_SIGNAL;
  }

  /** The string literal spanning [start, end), as JSON.parse decodes it, as a standalone string. */
  private stringAt(start: number, end: number): string {
    const raw = this.text.slice(start + 1, end - 1);
    if (raw.length < SHORTEST_SHARED_SLICE && !raw.includes(BACKSLASH)) return raw;
    return JSON.parse(this.text.slice(start, end)) as string;
  }

  /**
   * The wanted member the key just crossed, spanning [start, end), names: compared in place, or
   * decoded first when it may hold an escape.
   */
  private member(members: Members, start: number, end: number): { name: string; want: Want } | undefined {
    const { text } = this;
    const length = end - start - 2;
    if (this.skipper.mayHaveEscape) {
      const key = JSON.parse(text.slice(start, end)) as string;
      return members.find((m) => m.name === key);
    }
    for (const m of members) if (m.name.length === length && text.startsWith(m.name, start + 1)) return m;
    return undefined;
  }

  private skip(): void {
    const end = this.skipper.value(this.pos);
    if (end === UNSURE) this.fail();
    this.pos = end;
  }

  /** A scalar's value; an object or array is skipped and read as null. */
  private scalar(): unknown {
    const { text } = this;
    const start = this.pos;
    const c = text.charCodeAt(start);
    this.skip();
    if (c === QUOTE) return this.stringAt(start, this.pos);
    if (c === 0x74) return true;
    if (c === 0x66) return false;
    if (c === 0x6e || c === LBRACE || c === LBRACKET) return null;
    // The grammar was checked; Number and JSON.parse round the same decimal text to the same double.
    return Number(text.slice(start, this.pos));
  }

  /** The value at `pos` as `want` keeps it, leaving `pos` just past it. */
  private value(want: Want): unknown {
    if (want === 'scalar') return this.scalar();
    if (want === 'presence') {
      this.skip();
      return true;
    }
    return this.text.charCodeAt(this.pos) === LBRACE ? this.object(want) : this.scalar();
  }

  /** The wanted members of the object opening at `pos`; the last of duplicate keys wins, as in JSON.parse. */
  private object(members: Members): Record<string, unknown> {
    const { text, skipper } = this;
    const kept: Record<string, unknown> = {};
    let i = skipper.whitespace(this.pos + 1);
    if (text.charCodeAt(i) === RBRACE) {
      this.pos = i + 1;
      return kept;
    }
    for (;;) {
      if (text.charCodeAt(i) !== QUOTE) this.fail();
      const keyEnd = skipper.string(i);
      if (keyEnd === UNSURE) this.fail();
      const wanted = this.member(members, i, keyEnd);
      i = skipper.whitespace(keyEnd);
      if (text.charCodeAt(i) !== COLON) this.fail();
      this.pos = skipper.whitespace(i + 1);
      if (wanted === undefined) this.skip();
      // Only the fixed wanted names are ever assigned, so `__proto__` in a body cannot reach here.
      else kept[wanted.name] = this.value(wanted.want);
      i = skipper.whitespace(this.pos);
      const next = text.charCodeAt(i);
      if (next === RBRACE) {
        this.pos = i + 1;
        return kept;
      }
      if (next !== COMMA) this.fail();
      i = skipper.whitespace(i + 1);
    }
  }

  /** The whole text: one message, a batch of them, or another value (read as null). */
  body(): unknown {
    const { text, skipper } = this;
    this.pos = skipper.whitespace(0);
    const value = text.charCodeAt(this.pos) === LBRACKET ? this.batch() : this.message();
    if (skipper.whitespace(this.pos) !== text.length) this.fail();
    return value;
  }

  private message(): unknown {
    if (this.text.charCodeAt(this.pos) === LBRACE) return this.object(MESSAGE);
    this.skip();
    return null;
  }

  private batch(): unknown[] {
    const { text, skipper } = this;
    const elements: unknown[] = [];
    this.pos = skipper.whitespace(this.pos + 1);
    if (text.charCodeAt(this.pos) === RBRACKET) {
      this.pos += 1;
      return elements;
    }
    for (;;) {
      elements.push(this.message());
      const i = skipper.whitespace(this.pos);
      const next = text.charCodeAt(i);
      if (next === RBRACKET) {
        this.pos = i + 1;
        return elements;
      }
      if (next !== COMMA) this.fail();
      this.pos = skipper.whitespace(i + 1);
    }
  }
}

/** The members classification reads, or undefined when the text must be parsed whole to know. */
export function scanJsonRpc(text: string): { ok: true; value: unknown } | undefined {
  try {
    return { ok: true, value: new Scanner(text).body() };
  } catch (error) {
    if (error === UNSURE_SIGNAL) return undefined;
    throw error;
  }
}
