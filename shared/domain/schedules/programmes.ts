import { ulid } from 'ulidx';
import { Conflict, ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import type { AuditEvent } from '../decision.js';
import { upserted, type Placement } from './decisions.js';
import type { ScheduleRecord } from './records.js';
import type { ScheduleDetails, ScheduleKind } from '../../../schemas/schedules.js';

/**
 * Programme templates, shipped as data. They are TYPICAL programmes taken from public references, to be
 * adapted with the farm's veterinarian (local disease pressure, maternal antibodies, vaccine products
 * and their labels decide the real days and routes). Applying one to a cycle writes ordinary schedules
 * with `ageDays` timings (age 0 is the cycle's placement date), which the farm then edits or deletes
 * like any other: the template itself never changes what a farm has applied.
 */
export interface ProgrammeStep {
  /** Stable within its programme (recorded on the schedules applied from it). */
  id: string;
  kind: ScheduleKind;
  title: string;
  details: ScheduleDetails;
  ageDays: number[];
}

export interface Programme {
  id: string;
  name: string;
  birdType: 'broiler' | 'layer' | 'breeder';
  description: string;
  sources: Array<{ title: string; url: string }>;
  steps: ProgrammeStep[];
}

const MSD_PROGRAMMES = {
  title: 'MSD Veterinary Manual: Vaccination Programs in Poultry (B. Stewart-Brown)',
  url: 'https://www.msdvetmanual.com/poultry/nutrition-and-management-poultry/vaccination-programs-in-poultry',
};

export const PROGRAMMES: readonly Programme[] = [
  {
    id: 'broiler-typical',
    name: 'Typical broiler vaccination programme',
    birdType: 'broiler',
    description:
      'A typical programme for broilers placed as day-old chicks: Marek’s disease (and often IB) is given at the hatchery; Newcastle disease + infectious ' +
      'bronchitis on day 1, Gumboro (IBD) around day 14 (14–18 by maternal antibodies), a Newcastle booster around day 18–21. Typical only: adapt the days, ' +
      'strains and routes with the farm’s veterinarian.',
    sources: [
      {
        title: 'MSD Veterinary Manual: Vaccination program for broilers (table)',
        url: 'https://www.msdvetmanual.com/multimedia/table/vaccination-program-for-broilers',
      },
      MSD_PROGRAMMES,
      {
        title: 'UF/IFAS EDIS VM097: Newcastle and Infectious Bronchitis Vaccine Reactions in Commercial Broilers (Butcher, Miles, Nilipour)',
        url: 'https://edis.ifas.ufl.edu/publication/VM097',
      },
    ],
    steps: [
      {
        id: 'hatchery-certificate',
        kind: 'inspection',
        title: 'Check the hatchery’s vaccination certificate (Marek’s disease, infectious bronchitis)',
        details: { instructions: 'Marek’s disease (and often IB) is given at the hatchery (in ovo or day-old): keep the certificate with the flock records' },
        ageDays: [0],
      },
      {
        id: 'nd-ib',
        kind: 'vaccination',
        title: 'Newcastle disease + infectious bronchitis (live)',
        details: { vaccine: 'Newcastle disease + infectious bronchitis, live (B1 / Massachusetts)', method: 'spray', dose: '1 dose per bird' },
        ageDays: [1],
      },
      {
        id: 'ibd',
        kind: 'vaccination',
        title: 'Gumboro (infectious bursal disease), intermediate strain',
        details: { vaccine: 'Infectious bursal disease (Gumboro), live intermediate', method: 'water', dose: '1 dose per bird' },
        ageDays: [14],
      },
      {
        id: 'nd-booster',
        kind: 'vaccination',
        title: 'Newcastle disease booster',
        details: { vaccine: 'Newcastle disease, live (LaSota)', method: 'water', dose: '1 dose per bird' },
        ageDays: [21],
      },
    ],
  },
  {
    id: 'layer-rearing-typical',
    name: 'Typical layer rearing vaccination programme (0–18 weeks)',
    birdType: 'layer',
    description:
      'A typical rearing programme for commercial layer pullets placed as day-old chicks, by age: live Newcastle/bronchitis and Gumboro vaccines in the ' +
      'first weeks, laryngotracheitis, fowl pox and avian encephalomyelitis mid-rearing, an inactivated Newcastle/bronchitis/EDS vaccine before transfer ' +
      'to lay. Typical only: the products and days depend on the region’s diseases; adapt it with the farm’s veterinarian.',
    sources: [
      MSD_PROGRAMMES,
      {
        title: 'University of Pennsylvania School of Veterinary Medicine, poultry syllabus: vaccination programmes',
        url: 'http://cal.vet.upenn.edu/projects/poultry/Syllabus/page13.htm',
      },
    ],
    steps: [
      {
        id: 'hatchery-certificate',
        kind: 'inspection',
        title: 'Check the hatchery’s vaccination certificate (Marek’s disease)',
        details: { instructions: 'Marek’s disease is given at the hatchery: keep the certificate with the flock records' },
        ageDays: [0],
      },
      {
        id: 'nd-ib-1',
        kind: 'vaccination',
        title: 'Newcastle disease + infectious bronchitis (live), first dose',
        details: { vaccine: 'Newcastle disease + infectious bronchitis, live', method: 'spray', dose: '1 dose per bird' },
        ageDays: [10],
      },
      {
        id: 'ibd',
        kind: 'vaccination',
        title: 'Gumboro (infectious bursal disease), two doses',
        details: { vaccine: 'Infectious bursal disease (Gumboro), live intermediate', method: 'water', dose: '1 dose per bird' },
        ageDays: [18, 28],
      },
      {
        id: 'nd-ib-2',
        kind: 'vaccination',
        title: 'Newcastle disease + infectious bronchitis (live), boosters',
        details: { vaccine: 'Newcastle disease + infectious bronchitis, live', method: 'water', dose: '1 dose per bird' },
        ageDays: [35, 98],
      },
      {
        id: 'ilt',
        kind: 'vaccination',
        title: 'Infectious laryngotracheitis',
        details: { vaccine: 'Infectious laryngotracheitis, live', method: 'eye_drop', dose: '1 dose per bird' },
        ageDays: [56],
      },
      {
        id: 'pox-ae',
        kind: 'vaccination',
        title: 'Fowl pox + avian encephalomyelitis',
        details: { vaccine: 'Fowl pox + avian encephalomyelitis, live', method: 'wing_web', dose: '1 dose per bird' },
        ageDays: [70],
      },
      {
        id: 'inactivated-pre-lay',
        kind: 'vaccination',
        title: 'Inactivated Newcastle / bronchitis / egg drop syndrome before transfer to lay',
        details: { vaccine: 'Newcastle disease + infectious bronchitis + EDS, inactivated (oil emulsion)', method: 'injection', dose: '0.5 ml per bird' },
        ageDays: [119],
      },
    ],
  },
];

export const programmeOf = (id: string): Programme | undefined => PROGRAMMES.find((p) => p.id === id);

/**
 * A programme applied to a cycle: one ordinary `ageDays` schedule per step, placed as the body says; the
 * cycle must be active and of the programme's bird type.
 */
export function decideProgramme(
  caller: Pick<Caller, 'id'>,
  programme: Programme,
  target: { farmId: string; placement: Placement; placementDate: string | null; cycle: { status: string; birdType: string } },
  now: Date,
) {
  const { cycle, placement } = target;
  if (cycle.status !== 'active') throw new Conflict(`Cycle ${placement.cycleId} is closed; a programme applies to an active cycle`);
  if (cycle.birdType !== programme.birdType)
    throw new ValidationFailed([{ field: 'cycleId', message: `is a ${cycle.birdType} cycle; programme ${programme.id} is for ${programme.birdType}s` }]);
  const at = now.toISOString();
  const schedules: ScheduleRecord[] = programme.steps.map((step) => ({
    id: ulid(),
    farmId: target.farmId,
    ...placement,
    kind: step.kind,
    title: step.title,
    details: step.details,
    timing: { ageDays: step.ageDays },
    placementDate: target.placementDate,
    lastOccurrence: null,
    programme: { id: programme.id, step: step.id },
    createdBy: caller.id,
    createdAt: at,
    updatedAt: at,
    version: 1,
  }));
  const audit: AuditEvent[] = [
    {
      action: 'schedule.apply_programme',
      targetType: 'cycle',
      targetId: placement.cycleId ?? '',
      changes: { programmeId: programme.id, scheduleIds: schedules.map((s) => s.id) },
    },
  ];
  return { schedules, audit, changes: schedules.map(upserted) };
}
