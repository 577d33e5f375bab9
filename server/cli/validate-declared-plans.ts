import { planCreateSchema, planIncoherence } from '../api/plan-input-schema.js';
import { toRecordFields } from '../api/plans-router.js';
import type { Config } from '../config/config-schema.js';
import { ConfigError } from '../config/load-config.js';
import type { DeclaredPlan, DeclaredPlanFields } from '../store/records/declared-plan.js';

/**
 * Checks each plan of the config file as POST /api/v1/plans checks a plan, and answers them as the
 * store holds them. The first fault is a ConfigError naming the plan by index and key, and the field.
 */
export function validateDeclaredPlans(plans: NonNullable<Config['plans']>): DeclaredPlan[] {
  return plans.map(({ key, ...fields }, index) => {
    const where = `config plans[${index}] ("${key}")`;
    const parsed = planCreateSchema.safeParse(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      if (issue.code === 'unrecognized_keys') throw new ConfigError(`${where}.${issue.keys[0]}: unknown field`);
      throw new ConfigError(`${where}.${issue.path.map(String).join('.')}: ${issue.message}`);
    }
    const broken = planIncoherence(parsed.data);
    if (broken !== undefined) throw new ConfigError(`${where}.${broken.field}: ${broken.message}`);
    // A complete create input gives every field.
    return { key, plan: toRecordFields(parsed.data) as DeclaredPlanFields };
  });
}
