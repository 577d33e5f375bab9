import type { PlanInput } from './plan-record.js';

/** What a declared plan sets: everything a plan input holds but the key it is declared under. */
export type DeclaredPlanFields = Omit<PlanInput, 'declaredKey'>;

/** A plan as the config file declares it, under its key there. */
export interface DeclaredPlan {
  key: string;
  plan: DeclaredPlanFields;
}

export interface DeclaredPlansSync {
  inserted: string[];
  updated: string[];
  /** Declared before, no longer in the file. */
  archived: string[];
  /** Back in the file after being archived (and updated too when its fields changed). */
  restored: string[];
  unchanged: string[];
}
