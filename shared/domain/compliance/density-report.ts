/**
 * The report's stocking_density rule (docs/domain.md, "Stocking density"): every day of the cycle judged by
 * the rule of that day (./density-rules.ts: broilers' tier; laying hens by the house's system from laying
 * maturity; breeders as a reference; pullets not judged), a finding per day over a limit (fail when the
 * limit is a legal one, warn for a reference), the free-range run per hen, and a summary per rule.
 */
import { densityOf, type BirdDay, type DayWeight, type DensityDay } from './density.js';
import { densityAreaOf, densityRuleFor, FREE_RANGE_M2_PER_HEN, rangeOf, type DensityRuleId, type HouseAreas } from './density-rules.js';
import { result, type Finding, type RuleResult } from './report.js';

/** A day of the report: its density, the area it was measured on, and a free-range house's run per hen. */
export type ReportDensityDay = DensityDay & {
  areaM2: number;
  areaBasis: ReturnType<typeof densityAreaOf>['basis'];
  label: string;
  source: string;
  range: ReturnType<typeof rangeOf>;
};

export interface DensityHouse extends HouseAreas {
  id: string;
  houseType: string | null;
}

/**
 * The density of each day with birds: the day's rule (the birds are laying hens from `layingFrom`, the day
 * they reach laying maturity; null for broilers), the area it measures on and, broilers, the day's weight.
 */
export function cycleDensityDays(x: {
  days: readonly BirdDay[];
  house: DensityHouse;
  birdType: string;
  tier: number;
  layingFrom: string | null;
  weightAt: (date: string) => DayWeight | null;
  /** Laying hens per m² of usable area in alternative and free-range systems (`thresholds.layerMaxHensPerM2`). */
  layerMaxHensPerM2?: number;
}): ReportDensityDay[] {
  return x.days.flatMap((day): ReportDensityDay[] => {
    if (!(day.birds > 0)) return [];
    const rule = densityRuleFor({
      birdType: x.birdType,
      houseType: x.house.houseType,
      tier: x.tier,
      layingHens: x.layingFrom !== null && day.date >= x.layingFrom,
      layerMaxHensPerM2: x.layerMaxHensPerM2,
    });
    const area = densityAreaOf(rule, x.house);
    const d = densityOf(day, area.areaM2, x.birdType, x.tier, x.birdType === 'broiler' ? x.weightAt(day.date) : null, rule);
    if (!d) return [];
    const range = rule.id === 'free_range' ? rangeOf(day.birds, x.house.rangeAreaM2) : null;
    return [{ ...d, areaM2: area.areaM2, areaBasis: area.basis, label: rule.label, source: rule.source, range }];
  });
}

export interface DensityInput {
  houseId: string | null;
  /** The house's usable area (null: no house, or none recorded). */
  areaM2: number | null;
  birdType: string;
  days: ReportDensityDay[];
  /** The day the birds reach laying maturity (layers and breeders), shown with the pullets' days. */
  layingFrom?: string | null;
}

const overFinding = (d: DensityInput, x: ReportDensityDay): Finding => {
  const cageHint =
    x.areaBasis === 'usable_area_as_cage_area' ? '; measured on the usable area, as the house records no cage area (cageAreaM2): record it if larger' : '';
  return {
    status: x.binding ? 'fail' : 'warn',
    date: x.date,
    message: `${x.value} ${x.unit} in house ${d.houseId} on ${x.date}, over the ${x.binding ? 'limit' : 'reference'} of ${x.limit} ${x.unit} (${x.label})${cageHint}`,
    evidence: {
      houseId: d.houseId,
      areaM2: x.areaM2,
      areaBasis: x.areaBasis,
      birds: x.birds,
      weightGrams: x.weightGrams,
      weightSource: x.weightSource,
      value: x.value,
      limit: x.limit,
      unit: x.unit,
      rule: x.rule,
      binding: x.binding,
      source: x.source,
    },
  };
};

function rangeFindings(d: DensityInput): Finding[] {
  const freeRange = d.days.filter((x) => x.rule === 'free_range');
  if (freeRange.length === 0) return [];
  if (freeRange.every((x) => x.range === null))
    return [
      {
        status: 'warn',
        date: null,
        message: `House ${d.houseId} is free range but records no range area (rangeAreaM2): the ${FREE_RANGE_M2_PER_HEN} m² of open-air run per hen is not checked`,
        evidence: { houseId: d.houseId },
      },
    ];
  return freeRange.flatMap((x): Finding[] =>
    x.range?.over
      ? [
          {
            status: 'fail',
            date: x.date,
            message: `${x.range.m2PerHen} m² of open-air run per hen in house ${d.houseId} on ${x.date}, under the ${x.range.limit} m² of free-range eggs`,
            evidence: { houseId: d.houseId, birds: x.birds, rangeAreaM2: x.range.areaM2, m2PerHen: x.range.m2PerHen, limit: x.range.limit, source: x.source },
          },
        ]
      : [],
  );
}

/** One line per rule the cycle's days were judged by: its peak, its limit, the days over. */
function summaryOf(d: DensityInput): string {
  const byRule = new Map<DensityRuleId, ReportDensityDay[]>();
  for (const x of d.days) byRule.set(x.rule, [...(byRule.get(x.rule) ?? []), x]);
  return [...byRule.values()]
    .map((days) => {
      const first = days[0]!;
      const peak = days.reduce((a, x) => (x.value > a.value ? x : a), first);
      const at = `peak ${peak.value} ${peak.unit} on ${peak.date}`;
      if (first.limit === null) {
        const until = d.layingFrom ? ` (to ${days.at(-1)!.date}; laying maturity on ${d.layingFrom})` : '';
        return `${first.label}, ${days.length} day(s)${until}: no EU stocking limit applies (Council Directive 1999/74/EC covers hens from laying maturity), ${at}`;
      }
      const over = days.filter((x) => x.over).length;
      return `${first.label}: ${at} (${first.binding ? 'limit' : 'reference'} ${first.limit} ${first.unit})${over ? `, ${over} day(s) over` : ''}`;
    })
    .join('; ');
}

export function stockingDensityRule(d: DensityInput): RuleResult {
  if (!d.houseId || !d.areaM2) {
    const f: Finding = {
      status: 'warn',
      date: null,
      message: 'The flock has no house with a usable area: density cannot be checked',
      evidence: { houseId: d.houseId },
    };
    return result('stocking_density', [f], '', 'Not checked: no house or usable area');
  }
  const findings: Finding[] = [...d.days.filter((x) => x.over).map((x) => overFinding(d, x)), ...rangeFindings(d)];
  if (d.birdType === 'broiler' && d.days.length === 0)
    findings.push({ status: 'warn', date: null, message: 'No weight (measured or breed standard) to compute the density', evidence: { houseId: d.houseId } });
  const summary = d.days.length ? summaryOf(d) : 'No birds in the house';
  const sources = [...new Set(d.days.map((x) => x.source))];
  return result('stocking_density', findings, summary, summary, sources.length ? sources.join('; ') : undefined);
}
