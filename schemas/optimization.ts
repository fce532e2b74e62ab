import { Type, type Static } from '@sinclair/typebox';
import { ExpectedVersion, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';

/**
 * Optimization recommendations (`/api/v1/optimization/recommendations`): written by people (the
 * interface contract's POST) or proposed by the system from a cycle's analytics, with the evidence that
 * triggered them; `open → accepted | dismissed`.
 */
export const RECOMMENDATION_CATEGORIES = ['feed', 'water', 'health', 'environment', 'growth', 'production', 'welfare', 'cost', 'other'] as const;
export const RECOMMENDATION_STATUSES = ['open', 'accepted', 'dismissed'] as const;
export const RECOMMENDATION_SOURCES = ['user', 'system'] as const;

const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });
const FarmRef = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'Farm id' });

/** The interface contract's body: `{flockId, category, description, expectedBenefit}`. */
export const createRecommendationBody = Type.Object(
  {
    flockId: Ulid,
    category: StringEnum(RECOMMENDATION_CATEGORIES, { description: 'What the recommendation is about' }),
    description: Text(2000, 'What to do, and why'),
    expectedBenefit: Text(500, 'What it should bring, in words or figures (e.g. "FCR −0.05, about 2 % less feed")'),
    cycleId: Type.Optional(UlidOf('The cycle it applies to; default the flock’s active cycle (if any)')),
    priority: Type.Optional(StringEnum(['low', 'medium', 'high'] as const, { description: 'Default medium' })),
  },
  { additionalProperties: false, $id: 'CreateRecommendationBody' },
);
export type CreateRecommendationBody = Static<typeof createRecommendationBody>;

export const listRecommendationsQuery = Type.Object(
  {
    ...pageQueryProperties,
    farmId: Type.Optional(FarmRef),
    flockId: Type.Optional(Ulid),
    status: Type.Optional(StringEnum(RECOMMENDATION_STATUSES, { description: 'Only the recommendations in this status' })),
    category: Type.Optional(StringEnum(RECOMMENDATION_CATEGORIES, { description: 'Only the recommendations of this category' })),
    source: Type.Optional(StringEnum(RECOMMENDATION_SOURCES, { description: 'Only the recommendations from this source (a user, or the generator)' })),
  },
  { additionalProperties: false, $id: 'ListRecommendationsQuery' },
);
export type ListRecommendationsQuery = Static<typeof listRecommendationsQuery>;

export const recommendationParams = Type.Object(
  { recommendationId: UlidOf('Id of the recommendation') },
  { additionalProperties: false, $id: 'RecommendationParams' },
);
export type RecommendationParams = Static<typeof recommendationParams>;

export const decideRecommendationBody = Type.Object(
  {
    note: Type.Optional(Text(1000, 'Why (kept with the decision)')),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, $id: 'DecideRecommendationBody' },
);
export type DecideRecommendationBody = Static<typeof decideRecommendationBody>;

export const generateRecommendationsBody = Type.Object(
  {
    flockId: Ulid,
    cycleId: Type.Optional(UlidOf('Default: the flock’s active cycle')),
  },
  { additionalProperties: false, $id: 'GenerateRecommendationsBody' },
);
export type GenerateRecommendationsBody = Static<typeof generateRecommendationsBody>;

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

export const RecommendationDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    flockId: Ulid,
    cycleId: Type.Union([Ulid, Type.Null()]),
    category: StringEnum(RECOMMENDATION_CATEGORIES),
    priority: StringEnum(['low', 'medium', 'high'] as const),
    description: Type.String(),
    expectedBenefit: Type.String(),
    status: StringEnum(RECOMMENDATION_STATUSES),
    source: StringEnum(RECOMMENDATION_SOURCES),
    rule: Type.Union([Type.String(), Type.Null()], { description: 'System proposals: the analytics rule that triggered it' }),
    evidence: Type.Array(
      Type.Object({
        metric: Type.String(),
        value: Type.Union([Type.Number(), Type.Null()]),
        unit: Type.String(),
        reference: Type.Union([Type.Number(), Type.Null()]),
        note: Type.String(),
      }),
      { description: 'The figures that triggered a system proposal (empty for people’s recommendations)' },
    ),
    decidedAt: Nullable(Timestamp),
    decidedBy: Nullable(Type.String()),
    decisionNote: Nullable(Type.String()),
    createdAt: Timestamp,
    createdBy: Type.Union([Type.String(), Type.Null()], { description: 'User id; for system proposals the user who asked for them' }),
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'Recommendation' },
);
export const RecommendationResponse = Success(RecommendationDto);
export const RecommendationListResponse = ListOf(RecommendationDto);
export const GeneratedRecommendationsResponse = Success(
  Type.Object({
    cycleId: Ulid,
    created: Type.Array(RecommendationDto),
    alreadyProposed: Type.Array(Type.String(), { description: 'Rules that fired but had already proposed for this cycle (a rule proposes once per cycle)' }),
    checked: Type.Array(Type.String(), { description: 'Every rule evaluated' }),
  }),
);
