import { Type, type Static } from '@sinclair/typebox';
import { FigureDto } from './figures.js';
import { BIRD_TYPES } from './vocabulary.js';
import { StringEnum, Ulid } from './common.js';

/** The flock cards of a farm's dashboard (schemas/dashboard.ts): a broiler's, a laying flock's, and the emptied flocks awaiting their close. */
export const Int = Type.Integer();
export const Num = Type.Number();
export const NullableInt = Type.Union([Type.Integer(), Type.Null()]);
export const Day = Type.String({ format: 'date', description: 'Calendar date YYYY-MM-DD' });

/** The headline KPIs of a flock's cycle, the same Figures as the cycle summary (`kpis` of CycleSummary). */
export const headlineKpis = { mortalityPct: FigureDto, livabilityPct: FigureDto, fcr: FigureDto, epef: FigureDto };

/** A day’s counts of one flock (today or yesterday, from its rollup): plain numbers, the unit in the name. */
export const DayFiguresDto = Type.Object({ deaths: Num, culls: Num, feedKg: Num, waterLiters: Num, eggsCollected: Num });
export const LatestWeight = Type.Union([Type.Object({ date: Day, grams: Num }), Type.Null()]);

export const DailyRecordDue = Type.Boolean({
  description: 'Today’s daily record is still to fill: the cycle has started (one that starts later has none due) and no record is saved for today',
});

const cardHead = {
  flockId: Ulid,
  name: Type.String(),
  birdType: StringEnum(BIRD_TYPES),
  cycleId: Type.Union([Ulid, Type.Null()]),
  ageDays: NullableInt,
  birdsAlive: Num,
  mortalityPct: FigureDto,
  livabilityPct: FigureDto,
  latestWeight: LatestWeight,
};
const cardDay = { today: DayFiguresDto, yesterday: DayFiguresDto, dailyRecordToday: Type.Boolean(), dailyRecordDue: DailyRecordDue };

/** A broiler flock: KPIs from its cycle counters, today’s and yesterday’s figures. */
export const BroilerFlockCardDto = Type.Object(
  { kind: Type.Literal('broiler', { description: 'A broiler flock’s card' }), ...cardHead, fcr: FigureDto, epef: FigureDto, ...cardDay },
  { $id: 'DashboardBroilerCard', description: 'A broiler flock: mortality, livability, FCR and EPEF of its cycle, today’s and yesterday’s figures' },
);
/** A laying flock (layers and breeders): its cycle’s layer figures, as the Analytics V2 cycle KPIs count them. */
export const LayerFlockCardDto = Type.Object(
  {
    kind: Type.Literal('layer', { description: 'A laying flock’s card (layers and breeders)' }),
    ...cardHead,
    henDayPct: FigureDto,
    eggMassGrams: FigureDto,
    feedPerKgEgg: FigureDto,
    ...cardDay,
  },
  {
    $id: 'DashboardLayerCard',
    description:
      'A laying flock (layers and breeders): mortality and livability, and its cycle’s hen-day %, egg mass (g/hen/day) and feed per kg egg over the ' +
      'laying period (from the first day with eggs; a day not over counts once its eggs are recorded): the values of GET /api/v2/analytics/cycle',
  },
);
const CARDS = { broiler: BroilerFlockCardDto, layer: LayerFlockCardDto };
/** A flock whose active cycle had birds and has none left: the house is empty, the cycle is to close. */
export const EmptiedFlockDto = Type.Object(
  {
    flockId: Ulid,
    name: Type.String(),
    birdType: StringEnum(BIRD_TYPES),
    cycleId: Ulid,
    startDate: Day,
    emptiedOn: Type.Union([Day, Type.Null()], { description: 'The last day birds left the cycle (death, cull, sale, transfer out); null when not found' }),
    message: Type.String(),
  },
  {
    $id: 'DashboardEmptiedFlock',
    description:
      'A flock whose birds were all sold, transferred out or dead while its cycle is still active: close the cycle (it has no card among the flocks)',
  },
);
/** One flock’s card, told apart by `kind`: a flock whose active cycle has birds or awaits them (flocks without an active cycle and emptied ones have none). */
export const FlockCardDto = Type.Unsafe<Static<typeof BroilerFlockCardDto> | Static<typeof LayerFlockCardDto>>({
  oneOf: Object.values(CARDS),
  discriminator: { propertyName: 'kind', mapping: Object.fromEntries(Object.entries(CARDS).map(([kind, s]) => [kind, `#/components/schemas/${s.$id}`])) },
  description: 'A flock’s card: a broiler’s (kind broiler) or a laying flock’s (kind layer: layers and breeders)',
});

/** A broiler flock on the viewer's dashboard: its headline KPIs (no day figures). */
export const ViewerBroilerFlockDto = Type.Object(
  {
    flockId: Ulid,
    name: Type.String(),
    birdType: StringEnum(BIRD_TYPES),
    ageDays: NullableInt,
    birdsAlive: Num,
    ...headlineKpis,
    latestWeight: LatestWeight,
  },
  { $id: 'DashboardViewerBroilerFlock', description: 'A broiler flock on the viewer’s dashboard: mortality, livability, FCR, EPEF and the latest weight' },
);
/**
 * A flock on the viewer's dashboard: a broiler's headline KPIs, or a laying flock's card, the same as the
 * manager's (`kind: layer`: hen-day, egg mass, feed per kg egg, livability; FCR and EPEF mean nothing for hens).
 */
export const ViewerFlockDto = Type.Unsafe<Static<typeof ViewerBroilerFlockDto> | Static<typeof LayerFlockCardDto>>({
  oneOf: [ViewerBroilerFlockDto, LayerFlockCardDto],
  description:
    'A broiler flock’s headline KPIs (no `kind`), or a laying flock’s card (`kind: layer`, layers and breeders), the same as the manager’s dashboard shows',
});
