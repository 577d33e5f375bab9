/** A name joined into another caller: its counts, past and future, are read as that caller's. */
export interface CallerAliasRecord {
  alias: string;
  caller: string;
  createdAt: number;
  /** Who joined them (see the audit trail's actors). */
  createdBy: string;
  note: string | null;
}

/** A join as asked for: these names become `into`. */
export interface CallerJoinInput {
  into: string;
  aliases: readonly string[];
  note: string | null;
  by: string;
}

/** Why a join cannot be made as asked; `name` is the name at fault. */
export type CallerJoinRefusal =
  | { reason: 'into-is-alias'; name: string; caller: string }
  | { reason: 'alias-is-into'; name: string }
  | { reason: 'alias-joined-elsewhere'; name: string; caller: string }
  | { reason: 'alias-has-aliases'; name: string };
