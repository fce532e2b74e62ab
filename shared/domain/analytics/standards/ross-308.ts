import { dailyBroilerSeries, fromDay, type BreedStandard } from './types.js';

/**
 * Aviagen, Ross 308 / Ross 308 FF Broiler: Performance Objectives (2022), as-hatched, metric: the daily
 * table of days 0–56 exactly as published (no value interpolated or smoothed). Transcriptions and checks:
 * docs/breed-standards.md.
 */
export const ROSS_308: BreedStandard = {
  id: 'ross-308',
  name: 'Ross 308',
  birdType: 'broiler',
  aliases: ['Ross 308', 'Ross308', 'Aviagen Ross 308', 'Ross 308 FF'],
  source: {
    publisher: 'Aviagen',
    document: 'Ross 308 / Ross 308 FF Broiler: Performance Objectives 2022, as-hatched, metric (daily table)',
    transcription: 'Daily table as published; sources and cross-checks in docs/breed-standards.md',
  },
  edition: 2022,
  status: 'official',
  ageUnit: 'day',
  series: dailyBroilerSeries({
    bodyWeight: fromDay(
      0,
      [
        44, 62, 81, 102, 125, 151, 181, 213, 249, 288, 330, 376, 425, 477, 533, 592, 655, 720, 789, 860, 935, 1012, 1092, 1174, 1258, 1345, 1434, 1524, 1616,
        1710, 1805, 1901, 1999, 2097, 2196, 2296, 2396, 2496, 2597, 2697, 2798, 2898, 2998, 3097, 3197, 3295, 3393, 3490, 3586, 3681, 3776, 3869, 3961, 4052,
        4142, 4230, 4318,
      ],
    ),
    dailyGain: fromDay(
      1,
      [
        18, 19, 21, 23, 26, 29, 32, 36, 39, 42, 46, 49, 52, 56, 59, 62, 66, 69, 72, 74, 77, 80, 82, 85, 87, 89, 91, 92, 94, 95, 96, 97, 98, 99, 100, 100, 100,
        101, 101, 100, 100, 100, 100, 99, 98, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 87,
      ],
    ),
    dailyFeedIntake: fromDay(
      2,
      [
        16, 20, 24, 27, 31, 35, 39, 44, 48, 52, 57, 62, 67, 72, 77, 83, 88, 94, 100, 105, 111, 117, 122, 128, 134, 139, 145, 150, 156, 161, 166, 171, 176, 180,
        185, 189, 193, 197, 201, 204, 207, 211, 213, 216, 219, 221, 223, 225, 227, 229, 230, 231, 233, 233, 234,
      ],
    ),
    cumulativeFeed: fromDay(
      1,
      [
        12, 28, 48, 72, 100, 131, 166, 206, 249, 297, 349, 406, 468, 535, 608, 685, 768, 856, 950, 1050, 1155, 1266, 1383, 1505, 1633, 1767, 1907, 2051, 2202,
        2357, 2518, 2684, 2855, 3031, 3211, 3396, 3584, 3777, 3974, 4175, 4379, 4586, 4797, 5010, 5226, 5445, 5666, 5890, 6115, 6342, 6571, 6801, 7032, 7265,
        7498, 7733,
      ],
    ),
    cumulativeFcr: fromDay(
      1,
      [
        0.196, 0.352, 0.476, 0.577, 0.658, 0.724, 0.78, 0.826, 0.865, 0.9, 0.93, 0.957, 0.982, 1.005, 1.026, 1.047, 1.066, 1.086, 1.105, 1.123, 1.142, 1.16,
        1.178, 1.196, 1.214, 1.233, 1.251, 1.269, 1.288, 1.306, 1.325, 1.343, 1.362, 1.381, 1.399, 1.418, 1.437, 1.456, 1.474, 1.493, 1.512, 1.531, 1.55, 1.569,
        1.587, 1.606, 1.625, 1.644, 1.663, 1.681, 1.7, 1.719, 1.738, 1.756, 1.775, 1.793,
      ],
    ),
  }),
  note: 'Daily objectives, days 0–56. Daily feed intake is printed from day 2 (day 1 only as the cumulative 12 g). Weight is on-farm body weight; cumulative intake is per living bird; FCR includes the chick weight at placement.',
};
