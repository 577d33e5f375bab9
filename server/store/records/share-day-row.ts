import type { Era, Outcome, Transport } from '../../protocol/vocabulary.js';
import type { RequestClass } from '../../protocol/work-request.js';

/** Client requests of one UTC day and node by the dimensions the share needs, from the share rollup. */
export interface ShareDayRow {
  day: number;
  node: string;
  era: Era;
  transport: Transport;
  version: string;
  outcome: Outcome;
  /** Work, negotiation or plumbing, so the share can count work only and show negotiation beside it. */
  requestClass: RequestClass;
  count: number;
}

/** The share rollup's dimensions without the node: bridged rows are summed over the nodes read. */
export type BridgedShareRow = Omit<ShareDayRow, 'node'>;
