import { dailyBroilerSeries, fromDay, type BreedStandard } from './types.js';

/**
 * Cobb-Vantress, Cobb500 Broiler Performance & Nutrition Supplement (2022), as-hatched, metric: the daily
 * table of days 0–56 exactly as published (no value interpolated or smoothed). Transcriptions and checks:
 * docs/breed-standards.md.
 */
export const COBB_500: BreedStandard = {
  id: 'cobb-500',
  name: 'Cobb 500',
  birdType: 'broiler',
  aliases: ['Cobb 500', 'Cobb500', 'Cobb-Vantress Cobb 500'],
  source: {
    publisher: 'Cobb-Vantress',
    document: 'Cobb500 Broiler Performance & Nutrition Supplement 2022, as-hatched, metric (daily table)',
    transcription: 'Daily table as published; sources and cross-checks in docs/breed-standards.md',
  },
  edition: 2022,
  status: 'official',
  ageUnit: 'day',
  series: dailyBroilerSeries({
    bodyWeight: fromDay(
      0,
      [
        42, 55, 71, 90, 112, 138, 168, 202, 240, 283, 330, 382, 440, 503, 570, 639, 711, 786, 864, 945, 1029, 1116, 1205, 1296, 1390, 1486, 1583, 1682, 1783,
        1886, 1989, 2094, 2200, 2306, 2413, 2521, 2629, 2738, 2846, 2954, 3062, 3170, 3278, 3384, 3490, 3595, 3699, 3801, 3902, 4001, 4099, 4195, 4289, 4380,
        4470, 4557, 4641,
      ],
    ),
    dailyGain: fromDay(
      1,
      [
        13, 16, 19, 22, 26, 30, 34, 38, 43, 47, 52, 58, 63, 67, 69, 72, 75, 78, 81, 84, 87, 89, 91, 94, 96, 97, 99, 101, 103, 103, 105, 106, 106, 107, 108, 108,
        109, 108, 108, 108, 108, 108, 106, 106, 105, 104, 102, 101, 99, 98, 96, 94, 91, 90, 87, 84,
      ],
    ),
    dailyFeedIntake: fromDay(
      8,
      [
        40, 44, 50, 57, 64, 73, 80, 84, 91, 98, 105, 111, 118, 125, 131, 137, 143, 149, 154, 160, 165, 169, 174, 178, 183, 187, 191, 194, 198, 202, 206, 209,
        213, 217, 220, 224, 228, 232, 236, 239, 243, 247, 250, 253, 256, 258, 260, 261, 262,
      ],
    ),
    cumulativeFeed: fromDay(
      7,
      [
        180, 220, 264, 314, 371, 435, 508, 588, 672, 763, 861, 966, 1077, 1195, 1320, 1451, 1588, 1731, 1880, 2034, 2194, 2359, 2528, 2702, 2880, 3063, 3250,
        3441, 3635, 3833, 4035, 4241, 4450, 4663, 4880, 5100, 5324, 5552, 5784, 6020, 6259, 6502, 6749, 6999, 7252, 7508, 7766, 8026, 8287, 8549,
      ],
    ),
    cumulativeFcr: fromDay(
      7,
      [
        0.891, 0.917, 0.933, 0.952, 0.971, 0.991, 1.012, 1.029, 1.05, 1.072, 1.094, 1.116, 1.138, 1.16, 1.182, 1.203, 1.224, 1.245, 1.265, 1.284, 1.303, 1.322,
        1.34, 1.358, 1.375, 1.392, 1.409, 1.425, 1.441, 1.457, 1.474, 1.49, 1.506, 1.522, 1.539, 1.555, 1.573, 1.59, 1.608, 1.627, 1.646, 1.666, 1.686, 1.707,
        1.728, 1.75, 1.772, 1.795, 1.818, 1.842,
      ],
    ),
  }),
  note: 'Daily objectives, days 0–56. The supplement prints daily feed intake from day 8 and cumulative feed and FCR from day 7 (the first week only as its 180 g total).',
};
