/** Where a stdio bridge writes: whole lines, without their newline. */
export interface StdioBridgePorts {
  /** To the client, between the server's lines; the meter reads it as the server's. */
  toClient(line: string): void;
  /** To the server; never counted, it is the bridge's own traffic. */
  toServer(line: string): void;
}

/**
 * What the stdio wrapper needs of a bridge that answers legacy clients in front of a modern-only
 * server. The wrapper judges and counts each client line first, then hands the bridge the lines it
 * takes; the bridge sees every line the server writes and keeps those that answer its own requests.
 */
export interface StdioBridge {
  /** A client line the bridge takes: it answers it, or writes what it became to the server. */
  clientLine(line: string): void;
  /** A line the server wrote: true when it was the bridge's, false when it is the client's to read. */
  serverLine(line: string): boolean;
  /** A client line past the bound, unread: the bridge tells the client, whose request it cannot name. */
  tooLong(maxBytes: number): void;
  /** The server is gone: nothing more is written, and nothing is waited for. */
  close(): void;
}

/** Opens the bridge for one server process, on the ports the wrapper gives it. */
export type OpenStdioBridge = (ports: StdioBridgePorts) => StdioBridge;
