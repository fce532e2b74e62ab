import { atAges, type BreedStandard } from './types.js';

/** Lohmann Brown-Classic layers, body weight by week of age (sources: docs/breed-standards.md). */
export const LOHMANN_BROWN_CLASSIC: BreedStandard = {
  id: 'lohmann-brown-classic',
  name: 'Lohmann Brown-Classic',
  birdType: 'layer',
  aliases: ['Lohmann Brown-Classic', 'Lohmann Brown Classic', 'Lohmann Brown', 'LB-Classic'],
  source: {
    publisher: 'Lohmann Breeders',
    document: 'Lohmann Brown-Classic Management Guide, body weight (midpoints of the range)',
    transcription: 'docs/breed-standards.md',
  },
  edition: null,
  status: 'approximate',
  ageUnit: 'week',
  series: [
    {
      key: 'bodyWeight',
      label: 'Body weight, midpoint of the range',
      unit: 'g',
      decimals: 1,
      points: atAges([4, 8, 12, 16, 18, 20, 24, 40, 60], [273, 677, 1047, 1351, 1493, 1635, 1846, 1946, 1996]),
    },
  ],
  note: 'Rearing and early-lay body weights only (no production curve); neither the edition nor a second transcription is known.',
};
