import type { MovementInput } from '../../schemas/movements.js';
import type { DailyRecordBody } from '../../schemas/daily-records.js';
import type { FieldError } from '../errors.js';

/** The movements one day's form stands for (submitting the form writes them). */
export function movementsOfForm(form: DailyRecordBody): MovementInput[] {
  const { date } = form;
  const out: MovementInput[] = [];
  const deaths = typeof form.deaths === 'number' ? { unknown: form.deaths } : (form.deaths ?? {});
  for (const [cause, quantity] of Object.entries(deaths)) if (quantity) out.push({ type: 'bird_mortality', date, quantity, cause } as MovementInput);
  if (form.culls) out.push({ type: 'bird_cull', date, quantity: form.culls, ...(form.cullReason ? { reason: form.cullReason } : {}) });
  if (form.feedKg) out.push({ type: 'feed_consumption', date, quantityKg: form.feedKg, ...(form.feedType ? { feedType: form.feedType } : {}) });
  if (form.waterLiters) out.push({ type: 'water_consumption', date, liters: form.waterLiters });
  if (form.eggsCollected || form.eggsCracked || form.eggsDirty) {
    out.push({
      type: 'egg_collection',
      date,
      totalEggs: form.eggsCollected ?? 0,
      ...(form.eggsCracked ? { cracked: form.eggsCracked } : {}),
      ...(form.eggsDirty ? { dirty: form.eggsDirty } : {}),
    });
  }
  return out;
}

/** Cross-field rules JSON Schema cannot say. */
export function formProblems(form: Partial<DailyRecordBody>): FieldError[] {
  const problems: FieldError[] = [];
  const eggs = form.eggsCollected ?? 0;
  if ((form.eggsCracked ?? 0) > eggs) problems.push({ field: 'eggsCracked', message: 'must not exceed eggsCollected' });
  if ((form.eggsDirty ?? 0) > eggs) problems.push({ field: 'eggsDirty', message: 'must not exceed eggsCollected' });
  if (form.temperatureMinC !== undefined && form.temperatureMaxC !== undefined && form.temperatureMinC > form.temperatureMaxC) {
    problems.push({ field: 'temperatureMinC', message: 'must not be above temperatureMaxC' });
  }
  return problems;
}
