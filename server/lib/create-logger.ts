import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs on stderr, so command output on stdout stays clean for pipes. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { name: 'mcp-sunset' } }, pino.destination(2));
}
