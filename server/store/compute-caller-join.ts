import type { CallerAliasRecord, CallerJoinInput, CallerJoinRefusal } from './records/caller-alias-record.js';

/**
 * What a join writes, given the joins there are: the new alias rows, or why it cannot be made.
 * Joins stay one level deep, so a name is folded in one step and undoing one join never moves
 * another: the target must not itself be joined into something, a name already joined elsewhere
 * must be undone first, and a caller others are joined into cannot be joined itself. A name already
 * joined into the same target is left as it is. Pure and dialect-neutral; each store runs it in
 * the transaction that writes its answer.
 */
export function computeCallerJoin(existing: readonly CallerAliasRecord[], input: CallerJoinInput, now: number): { rows: CallerAliasRecord[] } | CallerJoinRefusal {
  const byAlias = new Map(existing.map((row) => [row.alias, row]));
  const callers = new Set(existing.map((row) => row.caller));
  const target = byAlias.get(input.into);
  if (target !== undefined) return { reason: 'into-is-alias', name: input.into, caller: target.caller };
  const rows: CallerAliasRecord[] = [];
  for (const alias of new Set(input.aliases)) {
    if (alias === input.into) return { reason: 'alias-is-into', name: alias };
    const joined = byAlias.get(alias);
    if (joined !== undefined && joined.caller !== input.into) return { reason: 'alias-joined-elsewhere', name: alias, caller: joined.caller };
    if (callers.has(alias)) return { reason: 'alias-has-aliases', name: alias };
    if (joined === undefined) rows.push({ alias, caller: input.into, createdAt: now, createdBy: input.by, note: input.note });
  }
  return { rows };
}

/** A refusal in the operator's words, with the parameter at fault: `key` (the caller) or `aliases`. */
export function describeJoinRefusal(refusal: CallerJoinRefusal): { message: string; parameter: 'key' | 'aliases' } {
  switch (refusal.reason) {
    case 'into-is-alias':
      return { message: `${refusal.name} is itself joined into ${refusal.caller}: join into ${refusal.caller} instead`, parameter: 'key' };
    case 'alias-is-into':
      return { message: `${refusal.name} cannot be joined into itself`, parameter: 'aliases' };
    case 'alias-joined-elsewhere':
      return { message: `${refusal.name} is joined into ${refusal.caller}: undo that join first`, parameter: 'aliases' };
    case 'alias-has-aliases':
      return { message: `${refusal.name} has names joined into it: undo those joins, or join them here too`, parameter: 'aliases' };
  }
}
