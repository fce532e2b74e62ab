/**
 * Which stocking-density rule judges a house on a day (docs/domain.md, "Stocking density"), by bird type,
 * the birds' stage (laying maturity: ../laying-maturity.ts) and the house's system (`type` of the house):
 *
 * - broilers: live kg per m² of usable area against the farm's declared tier (Directive 2007/43/EC, Art. 3);
 * - laying hens in an alternative system (floor, aviary; also a house of another or unknown system, the
 *   strictest of the hens' rules): at most 9 per m² of usable area (Directive 1999/74/EC, Art. 4(1)(4));
 * - free range: the same indoors, and at least 4 m² of range per hen (Regulation (EC) No 589/2008,
 *   Annex II, point 1(c): 2,500 hens per hectare), checked when the house records its range area;
 * - enriched cages: at least 750 cm² of cage area per hen (Directive 1999/74/EC, Art. 6(1)(a)), i.e.
 *   13.33 hens per m² of cage area. The cage area is the house's `cageAreaM2`; without it the usable area
 *   stands for it, which can only overstate the density (the usable area is part of the cage area);
 * - breeders in lay: Directive 1999/74/EC does not cover them (Art. 1(2), Art. 2(2)(a): its hens lay eggs
 *   not intended for hatching); 9 per m² of usable area is shown as a reference, a warning when passed;
 * - pullets before laying maturity (layers and breeders): no EU stocking limit applies (the Directive
 *   covers hens that have reached laying maturity); the density is shown, nothing is judged.
 */

/** Directive 1999/74/EC, Art. 4(1)(4): laying hens per m² of usable area in alternative systems. */
export const LAYER_MAX_HENS_PER_M2 = 9;
/** Directive 1999/74/EC, Art. 6(1)(a): cm² of cage area per hen in an enriched cage. */
export const ENRICHED_CAGE_CM2_PER_HEN = 750;
/** Regulation (EC) No 589/2008, Annex II, 1(c): m² of open-air run per free-range hen (2,500 hens per hectare). */
export const FREE_RANGE_M2_PER_HEN = 4;

export type DensityRuleId = 'broiler' | 'alternative' | 'free_range' | 'enriched_cage' | 'breeder' | 'rearing';

export interface DensityRule {
  id: DensityRuleId;
  /** The most kg (kg/m²) or birds (birds/m²) per m² of the area judged; null: no limit applies. */
  limit: number | null;
  unit: 'kg/m2' | 'birds/m2';
  /** A legal limit (over it: fail) or a reference (over it: warn). */
  binding: boolean;
  /** Which area of the house the density is measured on. */
  area: 'usable' | 'cage';
  /** What is judged, for a person. */
  label: string;
  source: string;
}

const ALTERNATIVE_SOURCE = 'Council Directive 1999/74/EC, Art. 4(1)(4): at most 9 laying hens per m² of usable area';

export const DENSITY_RULES: Record<Exclude<DensityRuleId, 'broiler'>, DensityRule> = {
  alternative: {
    id: 'alternative',
    limit: LAYER_MAX_HENS_PER_M2,
    unit: 'birds/m2',
    binding: true,
    area: 'usable',
    label: 'laying hens, alternative system (barn, aviary)',
    source: ALTERNATIVE_SOURCE,
  },
  free_range: {
    id: 'free_range',
    limit: LAYER_MAX_HENS_PER_M2,
    unit: 'birds/m2',
    binding: true,
    area: 'usable',
    label: 'free-range laying hens',
    source: `${ALTERNATIVE_SOURCE} (indoors); Regulation (EC) No 589/2008, Annex II, 1(c): at least 4 m² of open-air run per hen`,
  },
  enriched_cage: {
    id: 'enriched_cage',
    limit: 10_000 / ENRICHED_CAGE_CM2_PER_HEN,
    unit: 'birds/m2',
    binding: true,
    area: 'cage',
    label: 'laying hens, enriched cages',
    source: 'Council Directive 1999/74/EC, Art. 6(1)(a): at least 750 cm² of cage area per hen (13.33 hens per m² of cage area)',
  },
  breeder: {
    id: 'breeder',
    limit: LAYER_MAX_HENS_PER_M2,
    unit: 'birds/m2',
    binding: false,
    area: 'usable',
    label: 'breeders in lay (reference)',
    source:
      'Council Directive 1999/74/EC does not cover breeders (Art. 1(2), Art. 2(2)(a): eggs not intended for hatching); its 9 hens per m² of usable area as a reference',
  },
  rearing: {
    id: 'rearing',
    limit: null,
    unit: 'birds/m2',
    binding: false,
    area: 'usable',
    label: 'pullets before laying maturity',
    source:
      'No EU stocking limit for pullets: Council Directive 1999/74/EC covers hens that have reached laying maturity (Art. 2(2)(a)); ' +
      'Council Directive 98/58/EC’s general rules apply',
  },
};

/** The broilers' rule at the farm's declared tier (33, 39 or 42 kg/m²). */
export const broilerRule = (tier: number): DensityRule => ({
  id: 'broiler',
  limit: tier,
  unit: 'kg/m2',
  binding: true,
  area: 'usable',
  label: `broilers, the farm’s ${tier} kg/m² tier`,
  source: 'Council Directive 2007/43/EC, Art. 3 (33, 39 or 42 kg/m², as the farm declares)',
});

/**
 * The hens' rule of a barn, aviary or free-range house at the configured limit (`thresholds.layerMaxHensPerM2`):
 * the Directive's 9 per m² by default; a stricter figure the farm set replaces it (a laxer one is refused when
 * the configuration is changed: shared/domain/analytics/config.ts).
 */
function hensRuleAt(rule: DensityRule, maxHensPerM2: number): DensityRule {
  if (maxHensPerM2 === LAYER_MAX_HENS_PER_M2) return rule;
  return {
    ...rule,
    limit: maxHensPerM2,
    source: `the configured limit of ${maxHensPerM2} laying hens per m² of usable area (thresholds.layerMaxHensPerM2), stricter than ${rule.source}`,
  };
}

/**
 * The rule of a day: `layingHens` when the birds have reached laying maturity that day (layers, breeders);
 * `layerMaxHensPerM2`: the configured limit of hens in alternative and free-range systems (default 9).
 */
export function densityRuleFor(x: { birdType: string; houseType: string | null; tier: number; layingHens: boolean; layerMaxHensPerM2?: number }): DensityRule {
  if (x.birdType === 'broiler') return broilerRule(x.tier);
  if (!x.layingHens) return DENSITY_RULES.rearing;
  if (x.birdType === 'breeder') return DENSITY_RULES.breeder;
  if (x.houseType === 'cage') return DENSITY_RULES.enriched_cage;
  const hens = x.houseType === 'free_range' ? DENSITY_RULES.free_range : DENSITY_RULES.alternative;
  return hensRuleAt(hens, x.layerMaxHensPerM2 ?? LAYER_MAX_HENS_PER_M2);
}

/** The areas a house records (m²): usable area always; cage and range area when declared. */
export interface HouseAreas {
  usableAreaM2: number;
  cageAreaM2?: number | null;
  rangeAreaM2?: number | null;
}

/** The area a rule measures on, and what it is: a cage rule without a recorded cage area takes the usable area (see the module note). */
export function densityAreaOf(rule: DensityRule, house: HouseAreas): { areaM2: number; basis: 'usable_area' | 'cage_area' | 'usable_area_as_cage_area' } {
  if (rule.area !== 'cage') return { areaM2: house.usableAreaM2, basis: 'usable_area' };
  return house.cageAreaM2 ? { areaM2: house.cageAreaM2, basis: 'cage_area' } : { areaM2: house.usableAreaM2, basis: 'usable_area_as_cage_area' };
}

/** A free-range day's open-air run per hen against 4 m²; null when the house records no range area. */
export function rangeOf(birds: number, rangeAreaM2: number | null | undefined): { areaM2: number; m2PerHen: number; limit: number; over: boolean } | null {
  if (!rangeAreaM2 || !(birds > 0)) return null;
  const perHen = rangeAreaM2 / birds;
  return { areaM2: rangeAreaM2, m2PerHen: Math.round(perHen * 100) / 100, limit: FREE_RANGE_M2_PER_HEN, over: perHen < FREE_RANGE_M2_PER_HEN };
}
