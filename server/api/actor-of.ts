import type { Response } from 'express';

const ACTOR = 'mcpSunsetActor';

/** Notes who is making this API call, as the admin-token check found it. */
export function setActor(res: Response, actor: string): void {
  res.locals[ACTOR] = actor;
}

/** Who made this API call, for the changes that record it; `api` when no check ran. */
export function actorOf(res: Response): string {
  const actor: unknown = res.locals[ACTOR];
  return typeof actor === 'string' ? actor : 'api';
}
