/** Served work requests no trusted mechanism named, by what their clients claimed to be, over a span. */
export interface ClaimedClientRow {
  kind: 'client-info' | 'user-agent' | 'none';
  name: string;
  version: string;
  legacy: number;
  modern: number;
}
