import { describe, expect, it } from 'vitest';
import { ageOn, ageOrigin, dateOfAge } from '../../shared/domain/age.js';
import { effectsOf, netChanges } from '../../shared/domain/ledger.js';
import { agesAt } from '../../shared/domain/weights.js';
import { dayOf } from '../../shared/domain/flocks/daily-records.js';
import { occurrencesBetween, withAgeOrigin } from '../../shared/domain/schedules/occurrences.js';

/** Started 2026-05-01 to book feed, birds placed 2026-05-04, no hatch date: 2026-05-11 is day 7, not 10. */
const early = { startDate: '2026-05-01', hatchDate: null, placedOn: '2026-05-04' };

describe('the age origin: hatch date, else first placement, else start date', () => {
  it('counts from the placement, not the start date booked early', () => {
    expect(ageOrigin(early)).toEqual({ date: '2026-05-04', from: 'placement' });
    expect(ageOn(early, '2026-05-11')).toBe(7);
    expect(agesAt('2026-05-11', early)).toEqual({ daysInCycle: 10, ageDays: 7 });
    expect(dayOf({ ...early, birdType: 'broiler' }, '2026-05-11').ageDays).toBe(7);
    expect(dateOfAge(early, 7)).toBe('2026-05-11');
    expect(ageOn(early, '2026-05-02')).toBe(0); // before the placement: never negative
  });

  it('a known hatch date comes first; a cycle without birds counts from its start', () => {
    expect(ageOrigin({ ...early, hatchDate: '2026-04-20' })).toEqual({ date: '2026-04-20', from: 'hatch_date' });
    expect(ageOrigin({ startDate: '2026-05-01', hatchDate: null, placedOn: null })).toEqual({ date: '2026-05-01', from: 'start_date' });
    expect(ageOrigin({ startDate: '2026-05-01', hatchDate: null })).toEqual({ date: '2026-05-01', from: 'start_date' }); // records from before the field
  });

  it('the ledger counts an inflow on the cycle per date; an edit moves it and a delete takes it back', () => {
    const inflow = { type: 'bird_inflow' as const, date: '2026-05-04', quantity: 1000 };
    const [cycle] = netChanges(effectsOf(inflow));
    expect(cycle!.amounts).toMatchObject({ 'placedByDate.2026-05-04': 1000 });
    const [moved] = netChanges([...effectsOf(inflow, -1), ...effectsOf({ ...inflow, date: '2026-05-05' })]);
    expect(moved!.amounts).toEqual({ 'placedByDate.2026-05-04': -1000, 'placedByDate.2026-05-05': 1000 });
    expect(netChanges(effectsOf(inflow, -1))[0]!.amounts).toMatchObject({ 'placedByDate.2026-05-04': -1000 });
  });

  it('an ageDays schedule follows its cycle’s current origin, not the copy taken before the birds came', () => {
    const written = { timing: { ageDays: [7] }, placementDate: '2026-05-01' };
    expect(occurrencesBetween(written.timing, '2026-05-01', '2026-05-31', written)).toEqual(['2026-05-08']);
    const current = withAgeOrigin(written, early);
    expect(occurrencesBetween(current.timing, '2026-05-01', '2026-05-31', current)).toEqual(['2026-05-11']);
    expect(withAgeOrigin(written, undefined)).toBe(written);
  });
});
