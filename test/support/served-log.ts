/**
 * A server's own log of what it served, and on which path: every JSON-RPC message its transport
 * delivered to the SDK's protocol layer, with the era of the instance it was delivered to. A
 * message the routing, the transport or the SDK's entry refused before that (no session, a
 * version header it does not take, -32020, -32022, a body it cannot read) is not in it.
 */
export type ServedEra = 'legacy' | 'modern';

export interface ServedEntry {
  era: ServedEra;
  method: string | undefined;
  id: unknown;
}

export class ServedLog {
  readonly entries: ServedEntry[] = [];

  /** A mark to read what was served after it. */
  mark(): number {
    return this.entries.length;
  }

  since(mark: number): ServedEntry[] {
    return this.entries.slice(mark);
  }
}

interface Delivering {
  onmessage?: ((message: any, extra?: any) => void) | undefined;
}

/** Logs every message `transport` delivers from now on (call it after the server is connected to it). */
export function logDelivered(transport: Delivering, era: ServedEra, log: ServedLog): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) throw new Error('the transport is not connected to a server yet');
  transport.onmessage = (message, extra) => {
    const record = message as { method?: unknown; id?: unknown };
    log.entries.push({ era, method: typeof record.method === 'string' ? record.method : undefined, id: record.id });
    deliver.call(transport, message, extra);
  };
}

/**
 * Makes an SDK server log what each transport it is later connected to delivers, as `era`: for
 * servers an SDK entry connects itself (the v2 `createMcpHandler` factory's instances).
 */
export function logServedBy<S extends { connect(transport: any): Promise<void> }>(server: S, era: ServedEra, log: ServedLog): S {
  const connect = server.connect.bind(server);
  server.connect = async (transport: Delivering) => {
    await connect(transport);
    logDelivered(transport, era, log);
  };
  return server;
}
