/** Farms and houses as stored and decided on (keys and items: shared/db/farms.ts). */
export interface FarmRecord {
  id: string;
  name: string;
  location: string | null;
  countryCode: string | null;
  timezone: string;
  totalAreaHa: number | null;
  /** Declared broiler stocking density, kg/m² (Directive 2007/43/EC): 33, 39 or 42. */
  densityTier: 33 | 39 | 42;
  /** Drinking water held in storage, litres (continuity readiness); null when not declared. */
  waterReserveLiters: number | null;
  notes: string | null;
  isDefault: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface HouseRecord {
  id: string;
  farmId: string;
  name: string;
  /** Normalized name: the key of the house-name uniqueness item. */
  nameKey: string;
  usableAreaM2: number;
  capacity: number;
  /** The housing system (`type` in the API; the item attribute `type` names the item kind). */
  houseType: string | null;
  /** Enriched-cage houses: the total cage area, m² (the basis of 750 cm² per hen); null when not declared. */
  cageAreaM2?: number | null;
  /** Free-range houses: the open-air run, m² (at least 4 m² per hen); null when not declared. */
  rangeAreaM2?: number | null;
  notes: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The farm fields a PATCH may change. */
export type FarmChanges = Partial<
  Pick<FarmRecord, 'name' | 'location' | 'countryCode' | 'timezone' | 'totalAreaHa' | 'densityTier' | 'waterReserveLiters' | 'notes'>
>;
/** The house fields a PATCH may change (a rename also moves the uniqueness item). */
export type HouseChanges = Partial<Pick<HouseRecord, 'name' | 'nameKey' | 'usableAreaM2' | 'capacity' | 'houseType' | 'cageAreaM2' | 'rangeAreaM2' | 'notes'>>;
