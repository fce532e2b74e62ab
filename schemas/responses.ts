/**
 * The response schemas by name: a route's `responses` names its body's schema (`schema: 'MovementWrittenResponse'`)
 * and the OpenAPI generator (scripts/lib/openapi.ts) looks the name up here. Routes import this module's
 * names as a type only (`ResponseSchemaName`, shared/http/context.ts), so no deployed function carries
 * these definitions or TypeBox: they exist for the document, never for the answer.
 *
 * A new response schema is exported from its own module and listed here, under that module.
 */
export { AuditListResponse, CapabilityListResponse, UserListResponse, UserResponse } from './admin.js';
export { AnomaliesResponse } from './analytics-anomalies.js';
export { BreedAnalyticsResponse, BreedStandardsResponse } from './analytics-breed.js';
export { AnalyticsConfigHistoryResponse, AnalyticsConfigResponse } from './analytics-config.js';
export { EggQualityResponse } from './analytics-egg-quality.js';
export { FinancialsResponse } from './analytics-financials.js';
export { CycleAnalyticsResponse, DailyAnalyticsResponse } from './analytics-kpis.js';
export { PredictionsResponse } from './analytics-predictions.js';
export { SuppliersResponse } from './analytics-suppliers.js';
export { AgeAdjustedResponse, AnalyticsOverviewResponse, EggProductionResponse, WaterReadingResponse } from './analytics.js';
export { AnomalyEscalationResponse, AnomalyListResponse, AnomalyResponse } from './anomalies.js';
export { LoginResponse, LogoutResponse, SignupResponse, VerifyEmailResponse, VerifyTokenResponse } from './auth.js';
export { ErrorResponse } from './common.js';
export { ComplianceReportResponse, FarmComplianceStatusResponse, SampleListResponse, SampleResponse, WithdrawalListResponse } from './compliance.js';
export { DrillListResponse, DrillResponse, ExportResponse, ReadinessResponse, RestoreResponse, StatusResponse } from './continuity.js';
export { CycleListResponse, CycleResponse } from './cycles.js';
export { DailyCheckResponse, DailyRecordFormResponse, DailyRecordListResponse, DailyRecordResponse, DailyRecordWithFiguresResponse } from './daily-records.js';
export { DashboardResponse } from './dashboard.js';
export { FarmPricingHistoryResponse, FarmPricingResponse } from './farm-pricing.js';
export { FarmListResponse, FarmResponse, HouseListResponse, HouseResponse } from './farms.js';
export { CompareFlocksResponse, FlockHistoryResponse, FlockRankingResponse, KpiCatalogueResponse } from './flock-analytics.js';
export { FlockListResponse, FlockResponse } from './flocks.js';
export { InputSchemaListResponse, InputSchemaResponse, InventoryMovementListResponse, InventoryStockResponse } from './inventory.js';
export { DeviceListResponse, DeviceResponse, DeviceWithSecretResponse, HouseConditionsResponse, IngestResponse, ReadingsResponse } from './iot.js';
export { MovementListResponse, MovementResponse, MovementWrittenResponse } from './movements.js';
export { IncidentListResponse, IncidentMetricsResponse, IncidentResponse } from './operations.js';
export { GeneratedRecommendationsResponse, RecommendationListResponse, RecommendationResponse } from './optimization.js';
export {
  AccuracyResponse,
  DeviceRisksResponse,
  FarmForecastResponse,
  FlockForecastResponse,
  PredictiveRunListResponse,
  PredictiveRunResponse,
} from './predictive.js';
export {
  OrderListResponse,
  OrderResponse,
  OrderWithReceiptsResponse,
  ReceiptResponse,
  ReliabilityResponse,
  SuggestionsResponse,
  SupplierListResponse,
  SupplierResponse,
} from './procurement.js';
export { Health, OpenApiDocument, ServiceInfo } from './public.js';
export { BacktestResponse, CalculationsResponse, RuleListResponse, RuleResponse } from './rules.js';
export {
  AgendaResponse,
  AppliedProgrammeResponse,
  CompletedOccurrenceResponse,
  ProgrammeListResponse,
  ScheduleListResponse,
  ScheduleResponse,
} from './schedules.js';
export { EquipmentListResponse, TransferCompletedResponse, TransferListResponse, TransferResponse } from './sharing.js';
export { RecordWeightResponse, ScaleIngestResponse, WeightListResponse } from './weights.js';
