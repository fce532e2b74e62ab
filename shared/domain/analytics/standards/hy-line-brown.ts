import { atAges, type BreedStandard } from './types.js';

const HYLINE_WEEKS = [18, 20, 22, 24, 26, 28, 30, 35, 40, 50, 60, 70, 80];

/** Hy-Line Brown commercial layers, by week of age (sources: docs/breed-standards.md). */
export const HY_LINE_BROWN: BreedStandard = {
  id: 'hy-line-brown',
  name: 'Hy-Line Brown',
  birdType: 'layer',
  aliases: ['Hy-Line Brown', 'HyLine Brown', 'Hy Line Brown'],
  source: {
    publisher: 'Hy-Line International',
    document: 'Hy-Line Brown Commercial Layers Performance Standards Guide (cage), low end of the band',
    transcription: 'docs/breed-standards.md',
  },
  edition: null,
  status: 'approximate',
  ageUnit: 'week',
  series: [
    {
      key: 'henDayPct',
      label: 'Hen-day production',
      unit: '%',
      decimals: 2,
      points: atAges(HYLINE_WEEKS, [6.7, 52.5, 87.0, 92.4, 93.6, 93.5, 93.3, 92.7, 91.9, 90.0, 87.4, 83.6, 79.7]),
    },
    {
      key: 'bodyWeight',
      label: 'Body weight, minimum of the band',
      unit: 'kg',
      decimals: 3,
      points: atAges(HYLINE_WEEKS, [1.41, 1.52, 1.64, 1.74, 1.81, 1.85, 1.86, 1.9, 1.92, 1.94, 1.95, 1.95, 1.96]),
    },
  ],
  note: 'Secondary transcription (low end of the published band); the edition is not named.',
};
