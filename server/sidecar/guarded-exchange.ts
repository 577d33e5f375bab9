import type { IncomingHttpHeaders } from 'node:http';
import type { HttpExchange } from './http-exchange.js';

/**
 * Shields traffic from the meter: every call into the exchange is caught, reported once, and the
 * exchange is then left alone, so a metering bug costs counts, never a request.
 */
export class GuardedExchange<A> {
  constructor(
    private exchange: HttpExchange<A> | undefined,
    private readonly report: (error: unknown, where: string) => void,
  ) {}

  get active(): boolean {
    return this.exchange !== undefined;
  }

  /** True when every message it carried is counted (or it was never metered). */
  get settled(): boolean {
    return this.exchange?.isSettled ?? true;
  }

  get classification(): HttpExchange<A>['classification'] | undefined {
    return this.exchange?.classification;
  }

  responseHead(status: number, headers: IncomingHttpHeaders): void {
    if (this.exchange === undefined) return;
    try {
      this.exchange.responseHead(status, headers);
    } catch (error) {
      this.fail(error, 'response-head');
    }
  }

  responseBytes(chunk: Buffer): void {
    if (this.exchange === undefined) return;
    try {
      this.exchange.responseBytes(chunk);
    } catch (error) {
      this.fail(error, 'response-chunk');
    }
  }

  responseChunk(text: string): void {
    if (this.exchange === undefined) return;
    try {
      this.exchange.responseChunk(text);
    } catch (error) {
      this.fail(error, 'response-chunk');
    }
  }

  responseEnd(): void {
    if (this.exchange === undefined) return;
    try {
      this.exchange.responseEnd();
    } catch (error) {
      this.fail(error, 'response-end');
    }
  }

  clientClosed(): void {
    if (this.exchange === undefined) return;
    try {
      this.exchange.clientClosed();
    } catch (error) {
      this.fail(error, 'client-closed');
    }
  }

  upstreamFailed(): void {
    if (this.exchange === undefined) return;
    try {
      this.exchange.upstreamFailed();
    } catch (error) {
      this.fail(error, 'upstream-failed');
    }
  }

  private fail(error: unknown, where: string): void {
    this.exchange = undefined;
    this.report(error, where);
  }
}
