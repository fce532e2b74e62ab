/**
 * The response schemas (TypeBox) and what the services return cannot drift apart: at compile time
 * (`npx tsc --noEmit`), the static type of each documented `data` equals the return type of the use case
 * that answers it (the analytics engine's output types, the dashboard's views). A KPI added to the engine
 * without its schema, or a schema field the engine does not return, is a type error here.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { AnomaliesResponse } from '../../schemas/analytics-anomalies.js';
import type { BreedAnalyticsResponse, BreedStandardsResponse } from '../../schemas/analytics-breed.js';
import type { EggQualityResponse } from '../../schemas/analytics-egg-quality.js';
import type { FinancialsResponse } from '../../schemas/analytics-financials.js';
import type { CycleAnalyticsResponse, DailyAnalyticsResponse } from '../../schemas/analytics-kpis.js';
import type { PredictionsResponse } from '../../schemas/analytics-predictions.js';
import type { SuppliersResponse } from '../../schemas/analytics-suppliers.js';
import type * as D from '../../schemas/dashboard.js';
import type { FlockCardDto } from '../../schemas/dashboard-cards.js';
import type * as reports from '../../shared/services/analytics/reports.js';
import type { dashboardFor } from '../../shared/services/dashboard.js';
import type { SalmonellaDue, salmonellaDueOf } from '../../shared/services/compliance/report.js';
import type { Alert, Task, flockCard, totalsOf } from '../../shared/domain/dashboard.js';
import type { Withdrawal } from '../../shared/db/dashboard.js';
import type { FarmStock } from '../../shared/db/inventory.js';

/** Structural normal form: intersections flattened, recursively (so `A & {b}` equals `{...A, b}`). */
type Deep<T> = T extends readonly (infer U)[] ? Deep<U>[] : T extends object ? { [K in keyof T]: Deep<T[K]> } : T;
/** Exactly the same type (optional keys, null and literal unions included). */
type Equals<X, Y> = (<T>() => T extends Deep<X> ? 1 : 2) extends <T>() => T extends Deep<Y> ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type DataOf<S extends TSchema> = Static<S> extends { data: infer D } ? D : never;
type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

type Checks = [
  Assert<Equals<DataOf<typeof DailyAnalyticsResponse>, Returned<typeof reports.dailyReport>>>,
  Assert<Equals<DataOf<typeof CycleAnalyticsResponse>, Returned<typeof reports.cycleReport>>>,
  Assert<Equals<DataOf<typeof BreedAnalyticsResponse>, Returned<typeof reports.breedReport>>>,
  Assert<Equals<DataOf<typeof FinancialsResponse>, Returned<typeof reports.financialReport>>>,
  Assert<Equals<DataOf<typeof PredictionsResponse>, Returned<typeof reports.predictionReport>>>,
  Assert<Equals<DataOf<typeof AnomaliesResponse>, Returned<typeof reports.anomalyReport>>>,
  Assert<Equals<DataOf<typeof SuppliersResponse>, Returned<typeof reports.supplierReport>>>,
  Assert<Equals<DataOf<typeof EggQualityResponse>, Returned<typeof reports.eggQualityReport>>>,
  Assert<Equals<DataOf<typeof BreedStandardsResponse>, ReturnType<typeof reports.breedStandards>>>,
  // The dashboard: its pieces, then the union of the role views (told apart by `role`).
  Assert<Equals<Static<typeof FlockCardDto>, ReturnType<typeof flockCard>>>,
  Assert<Equals<Static<typeof D.DashboardTotalsDto>, ReturnType<typeof totalsOf>>>,
  Assert<Equals<Static<typeof D.DashboardAlertDto>, Alert>>,
  Assert<Equals<Static<typeof D.WorkerDashboardDto>['tasks'][number], Task>>,
  Assert<Equals<Static<typeof D.WithdrawalDto>, Withdrawal & { daysLeft: number }>>,
  Assert<Equals<Static<typeof D.ManagerDashboardDto>['stock'], FarmStock>>,
  Assert<Equals<Static<typeof D.SalmonellaDueDto>, SalmonellaDue>>,
  Assert<Equals<Static<typeof D.ManagerDashboardDto>['salmonellaSamples'], Returned<typeof salmonellaDueOf>>>,
  // Every view the service builds is one of the documented ones (one direction only: the service's
  // `system.service` is the literal service name, the schema says string); the closed validation of the
  // dashboard tests catches a field the schema does not declare.
  Assert<Returned<typeof dashboardFor> extends Static<typeof D.DashboardDto> ? true : false>,
];

describe('response schemas', () => {
  it('agree with the services’ return types (checked by tsc)', () => {
    const checks: Checks | undefined = undefined;
    expect(checks).toBeUndefined();
  });
});
