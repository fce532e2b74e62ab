import { bandFrom, bandMidpointSeries, derivedSeries, fromAge, joinBands, publishedSeries, type BreedStandard } from './types.js';

/**
 * Hy-Line International, Hy-Line Brown Commercial Layers, Conventional Systems Performance Guide
 * ("International standards"; hyline.com, file BRN STD ENG.pdf): the Rearing Period Performance Table
 * (weeks 1–17) and the Production Period Performance Table (weeks 18–100), every column, transcribed as
 * printed. The edition year is not printed in the transcription; the guide's summary runs to 90 weeks
 * and its tables to 100 weeks, with water intake columns. Transcription: the public repository
 * github.com/dominicdesy/intelia-expert, "Hyline Brown STD ENG_extracted.txt" at commit
 * 092334a3e9cb4584eb5366dd4f48f45cac81dc3b; no second transcription was found, the rows pass the guide's own
 * arithmetic (tests/unit/layer-standards.test.ts). Sources and checks: docs/breed-standards.md.
 *
 * The guide prints most columns as a BAND (low–high) with no target column. Each band is served as its
 * midpoint, (low + high) ÷ 2, labelled `basis: 'band midpoint'` with the printed edges kept in `band`:
 * never the low end. Mortality, egg weight and cumulative egg mass are printed as single values.
 */
export const HY_LINE_BROWN_TABLES = {
  /** Rearing Period Performance Table, weeks 1–17 (week 1 first): cumulative mortality % from the day-old chicks; bands of body weight (g), water (ml/bird/day), feed intake (g/bird/day) and cumulative feed (g/bird). */
  rearing: {
    mortalityCumPct: [0.4, 0.55, 0.65, 0.75, 0.85, 0.95, 1.05, 1.15, 1.25, 1.35, 1.45, 1.55, 1.63, 1.7, 1.78, 1.85, 2],
    bodyWeightG: {
      low: [70, 115, 190, 270, 360, 470, 570, 680, 780, 885, 995, 1095, 1175, 1265, 1345, 1410, 1485],
      high: [80, 145, 220, 320, 420, 520, 640, 760, 880, 995, 1105, 1205, 1295, 1365, 1445, 1510, 1590],
    },
    waterMl: {
      low: [18, 25, 30, 37, 43, 52, 62, 71, 78, 84, 90, 93, 96, 99, 102, 105, 108],
      high: [28, 42, 50, 60, 73, 89, 98, 112, 122, 129, 137, 144, 148, 154, 158, 164, 170],
    },
    feedIntakeG: {
      low: [12, 17, 20, 25, 29, 35, 41, 47, 52, 56, 60, 62, 64, 66, 68, 70, 72],
      high: [14, 21, 25, 30, 36, 44, 49, 56, 61, 64, 69, 72, 74, 77, 79, 82, 85],
    },
    cumulativeFeedG: {
      low: [84, 201, 343, 515, 717, 960, 1249, 1580, 1943, 2334, 2754, 3189, 3637, 4099, 4575, 5066, 5570],
      high: [98, 244, 418, 627, 883, 1193, 1537, 1929, 2355, 2806, 3287, 3791, 4308, 4845, 5399, 5973, 6568],
    },
  },
  /** Production Period Performance Table, weeks 18–100 (week 18 first; hen-housed egg mass from week 19, blank at 18): bands of hen-day %, cumulative hen-day and hen-housed eggs, body weight (g), water (ml/bird/day), feed intake (g/bird/day); cumulative mortality % from housing; cumulative hen-housed egg mass (kg); egg weight (g). */
  production: {
    henDayPct: {
      low: [
        1.1, 8.2, 30.8, 61.4, 82.4, 90.6, 93.2, 94.2, 94.6, 94.8, 94.8, 94.8, 94.8, 94.7, 94.7, 94.6, 94.4, 94.2, 94, 93.7, 93.5, 93.3, 93.1, 92.8, 92.5, 92.1,
        91.8, 91.5, 91.2, 90.9, 90.7, 90.4, 90, 89.8, 89.6, 89.4, 89.3, 88.9, 88.7, 88.4, 88.2, 87.9, 87.6, 87.3, 87, 86.7, 86.4, 86.1, 85.6, 85.1, 84.5, 83.8,
        83.2, 82.7, 82, 81.4, 80.7, 80.1, 79.5, 78.9, 78.3, 77.7, 77.1, 76.6, 76.1, 75.6, 75.2, 74.8, 74.4, 74, 73.6, 73.3, 73, 72.7, 72.4, 72.1, 71.8, 71.5,
        71.2, 70.9, 70.6, 70.3, 70,
      ],
      high: [
        7.7, 27.1, 57.3, 80.5, 90.6, 94.1, 95.5, 96.2, 96.4, 96.6, 96.6, 96.6, 96.5, 96.5, 96.5, 96.3, 96.1, 96, 95.8, 95.7, 95.5, 95.3, 95, 94.9, 94.6, 94.4,
        94.1, 93.8, 93.5, 93.3, 93.1, 92.8, 92.7, 92.4, 92.2, 91.9, 91.7, 91.5, 91.4, 91.2, 91, 90.8, 90.5, 90.2, 90, 89.8, 89.6, 89.3, 89, 88.6, 88.3, 88,
        87.6, 87, 86.4, 85.8, 85.2, 84.6, 84, 83.4, 82.8, 82.2, 81.6, 81, 80.4, 79.8, 79.2, 78.6, 78, 77.4, 76.8, 76.3, 75.8, 75.3, 74.9, 74.5, 74.1, 73.7,
        73.3, 72.9, 72.5, 72.1, 71.7,
      ],
    },
    henDayEggsCum: {
      low: [
        0.1, 0.7, 2.8, 7.1, 12.9, 19.2, 25.7, 32.3, 39, 45.6, 52.2, 58.9, 65.5, 72.1, 78.8, 85.4, 92, 98.6, 105.2, 111.7, 118.3, 124.8, 131.3, 137.8, 144.3,
        150.8, 157.2, 163.6, 170, 176.3, 182.7, 189, 195.3, 201.6, 207.9, 214.1, 220.4, 226.6, 232.8, 239, 245.2, 251.3, 257.5, 263.6, 269.7, 275.7, 281.8,
        287.8, 293.8, 299.7, 305.7, 311.5, 317.4, 323.1, 328.9, 334.6, 340.2, 345.8, 351.4, 356.9, 362.4, 367.8, 373.2, 378.6, 383.9, 389.2, 394.5, 399.7,
        404.9, 410.1, 415.2, 420.4, 425.5, 430.6, 435.6, 440.7, 445.7, 450.7, 455.7, 460.7, 465.6, 470.5, 475.4,
      ],
      high: [
        0.5, 2.4, 6.4, 12.1, 18.4, 25, 31.7, 38.4, 45.2, 51.9, 58.7, 65.5, 72.2, 79, 85.7, 92.5, 99.2, 105.9, 112.6, 119.3, 126, 132.7, 139.3, 146, 152.6,
        159.2, 165.8, 172.3, 178.9, 185.4, 191.9, 198.4, 204.9, 211.4, 217.8, 224.3, 230.7, 237.1, 243.5, 249.9, 256.3, 262.6, 269, 275.3, 281.6, 287.9, 294.1,
        300.4, 306.6, 312.8, 319, 325.2, 331.3, 337.4, 343.4, 349.4, 355.4, 361.3, 367.2, 373.1, 378.8, 384.6, 390.3, 396, 401.6, 407.2, 412.7, 418.2, 423.7,
        429.1, 434.5, 439.8, 445.2, 450.4, 455.7, 460.9, 466.1, 471.2, 476.4, 481.5, 486.5, 491.6, 496.6,
      ],
    },
    henHousedEggsCum: {
      low: [
        0.1, 0.7, 2.8, 7.1, 12.8, 19.2, 25.7, 32.2, 38.8, 45.4, 52, 58.6, 65.2, 71.8, 78.4, 84.9, 91.5, 98, 104.5, 111, 117.5, 123.9, 130.4, 136.8, 143.2,
        149.5, 155.9, 162.2, 168.4, 174.7, 181, 187.2, 193.4, 199.5, 205.7, 211.8, 217.9, 224, 230.1, 236.1, 242.2, 248.2, 254.1, 260.1, 266, 271.9, 277.8,
        283.6, 289.4, 295.2, 300.9, 306.6, 312.2, 317.8, 323.3, 328.8, 334.2, 339.6, 344.9, 350.2, 355.4, 360.6, 365.7, 370.8, 375.8, 380.9, 385.8, 390.8,
        395.7, 400.5, 405.4, 410.2, 415, 419.7, 424.4, 429.1, 433.8, 438.4, 443, 447.6, 452.1, 456.7, 461.2,
      ],
      high: [
        0.5, 2.4, 6.4, 12.1, 18.4, 25, 31.6, 38.3, 45, 51.8, 58.5, 65.2, 71.9, 78.6, 85.3, 92, 98.7, 105.3, 111.9, 118.6, 125.2, 131.8, 138.3, 144.9, 151.4,
        157.9, 164.4, 170.9, 177.3, 183.8, 190.2, 196.5, 202.9, 209.3, 215.6, 221.9, 228.2, 234.4, 240.7, 246.9, 253.2, 259.4, 265.5, 271.7, 277.8, 283.9, 290,
        296.1, 302.1, 308.1, 314.1, 320.1, 326, 331.9, 337.7, 343.5, 349.2, 354.9, 360.5, 366.1, 371.6, 377.1, 382.5, 387.9, 393.2, 398.5, 403.7, 408.9, 414.1,
        419.2, 424.2, 429.2, 434.2, 439.1, 444, 448.8, 453.6, 458.4, 463.2, 467.9, 472.5, 477.2, 481.8,
      ],
    },
    mortalityCumPct: [
      0.05, 0.08, 0.13, 0.2, 0.27, 0.34, 0.4, 0.46, 0.5, 0.55, 0.61, 0.66, 0.71, 0.76, 0.8, 0.86, 0.92, 0.97, 1.02, 1.08, 1.12, 1.18, 1.24, 1.3, 1.35, 1.41,
      1.47, 1.52, 1.59, 1.64, 1.7, 1.76, 1.83, 1.89, 1.95, 2.01, 2.09, 2.16, 2.24, 2.33, 2.4, 2.49, 2.57, 2.65, 2.77, 2.85, 2.92, 2.97, 3.08, 3.14, 3.2, 3.3,
      3.43, 3.58, 3.73, 3.88, 4.03, 4.18, 4.33, 4.48, 4.63, 4.78, 4.93, 5.08, 5.23, 5.38, 5.53, 5.68, 5.83, 5.98, 6.13, 6.28, 6.45, 6.65, 6.85, 7.1, 7.3, 7.5,
      7.6, 7.8, 8, 8.2, 8.4,
    ],
    bodyWeightG: {
      low: [
        1550, 1620, 1680, 1730, 1770, 1800, 1820, 1840, 1860, 1880, 1890, 1900, 1910, 1920, 1930, 1930, 1940, 1940, 1950, 1950, 1950, 1950, 1950, 1960, 1960,
        1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960,
        1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960,
        1960, 1960, 1960, 1960, 1960, 1960, 1960, 1960,
      ],
      high: [
        1670, 1740, 1800, 1850, 1890, 1920, 1950, 1980, 2000, 2010, 2030, 2040, 2050, 2060, 2070, 2070, 2080, 2080, 2080, 2090, 2090, 2090, 2090, 2090, 2100,
        2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100,
        2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100,
        2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100,
      ],
    },
    waterMl: {
      low: [
        110, 127, 135, 142, 148, 154, 159, 162, 163, 164, 164, 164, 164, 164, 164, 164, 164, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163,
        163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163,
        163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163, 163,
      ],
      high: [
        176, 188, 197, 205, 215, 222, 228, 230, 231, 232, 233, 233, 233, 233, 234, 233, 233, 233, 233, 233, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232,
        232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232,
        232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232, 232,
      ],
    },
    feedIntakeG: {
      low: [
        73, 85, 90, 95, 99, 102, 106, 108, 109, 109, 109, 109, 109, 109, 109, 109, 109, 109, 109, 109, 109, 109, 108, 108, 108, 108, 108, 108, 108, 108, 108,
        108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108,
        108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108, 108,
      ],
      high: [
        88, 94, 99, 103, 107, 111, 114, 115, 116, 116, 116, 117, 117, 117, 117, 117, 117, 117, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116,
        116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116,
        116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 116,
      ],
    },
    henHousedEggMassCumKg: [
      0.1, 0.2, 0.5, 0.8, 1.2, 1.6, 2, 2.4, 2.8, 3.2, 3.6, 4, 4.4, 4.8, 5.2, 5.6, 6, 6.4, 6.9, 7.3, 7.7, 8.1, 8.5, 8.9, 9.3, 9.7, 10.1, 10.5, 10.9, 11.4, 11.8,
      12.2, 12.6, 13, 13.4, 13.8, 14.2, 14.5, 14.9, 15.3, 15.7, 16.1, 16.5, 16.9, 17.3, 17.7, 18.1, 18.4, 18.8, 19.2, 19.6, 20, 20.3, 20.7, 21.1, 21.4, 21.8,
      22.1, 22.5, 22.8, 23.2, 23.5, 23.9, 24.2, 24.5, 24.9, 25.2, 25.5, 25.9, 26.2, 26.5, 26.8, 27.1, 27.4, 27.8, 28.1, 28.4, 28.7, 29, 29.3, 29.6, 29.9,
    ],
    eggWeightG: [
      46.5, 49.3, 51.6, 53.5, 55, 56.4, 57.5, 58.4, 59.2, 59.9, 60.4, 60.9, 61.3, 61.7, 62, 62.3, 62.5, 62.7, 62.9, 63.1, 63.2, 63.3, 63.4, 63.5, 63.6, 63.7,
      63.8, 63.9, 63.9, 64, 64, 64.1, 64.1, 64.2, 64.2, 64.3, 64.3, 64.3, 64.4, 64.4, 64.4, 64.5, 64.5, 64.6, 64.6, 64.6, 64.6, 64.7, 64.7, 64.7, 64.7, 64.8,
      64.8, 64.8, 64.9, 64.9, 64.9, 64.9, 64.9, 65, 65, 65, 65, 65, 65.1, 65.1, 65.1, 65.1, 65.2, 65.2, 65.2, 65.2, 65.3, 65.3, 65.3, 65.3, 65.3, 65.4, 65.4,
      65.4, 65.4, 65.4, 65.5,
    ],
  },
} as const;

const R = HY_LINE_BROWN_TABLES.rearing;
const P = HY_LINE_BROWN_TABLES.production;
const REARING_FROM = 1;
const LAY_FROM = 18;

const henDay = bandMidpointSeries({ key: 'henDayPct', label: 'Hen-day production', unit: '%', decimals: 2 }, bandFrom(LAY_FROM, P.henDayPct));
const eggWeight = fromAge(LAY_FROM, P.eggWeightG);
const livability = (mortality: ReadonlyArray<readonly [number, number]>) => mortality.map(([age, m]) => [age, 100 - m] as const);
const rearingMortality = fromAge(REARING_FROM, R.mortalityCumPct);
const layingMortality = fromAge(LAY_FROM, P.mortalityCumPct);

/** Hy-Line Brown commercial layers, by week of age, weeks 1–100 (see the module note). */
export const HY_LINE_BROWN: BreedStandard = {
  id: 'hy-line-brown',
  name: 'Hy-Line Brown',
  birdType: 'layer',
  aliases: ['Hy-Line Brown', 'HyLine Brown', 'Hy Line Brown'],
  source: {
    publisher: 'Hy-Line International',
    document:
      'Hy-Line Brown Commercial Layers, Conventional Systems Performance Guide (international standards; hyline.com, BRN STD ENG.pdf): Rearing Period (weeks 1–17) and Production Period (weeks 18–100) Performance Tables',
    transcription: 'github.com/dominicdesy/intelia-expert, commit 092334a3e9cb4584eb5366dd4f48f45cac81dc3b; sources and checks in docs/breed-standards.md',
  },
  edition: null,
  status: 'approximate',
  ageUnit: 'week',
  series: [
    bandMidpointSeries({ key: 'bodyWeight', label: 'Body weight', unit: 'g', decimals: 1 }, bandFrom(REARING_FROM, joinBands(R.bodyWeightG, P.bodyWeightG))),
    bandMidpointSeries(
      { key: 'dailyFeedIntake', label: 'Daily feed intake', unit: 'g/bird/day', decimals: 1 },
      bandFrom(REARING_FROM, joinBands(R.feedIntakeG, P.feedIntakeG)),
    ),
    bandMidpointSeries(
      { key: 'cumulativeFeed', label: 'Cumulative feed intake in rearing', unit: 'g', decimals: 1 },
      bandFrom(REARING_FROM, R.cumulativeFeedG),
    ),
    bandMidpointSeries(
      { key: 'waterIntake', label: 'Water intake', unit: 'ml/bird/day', decimals: 1 },
      bandFrom(REARING_FROM, joinBands(R.waterMl, P.waterMl)),
    ),
    henDay,
    bandMidpointSeries({ key: 'henDayEggs', label: 'Hen-day eggs, cumulative', unit: 'eggs/hen', decimals: 2 }, bandFrom(LAY_FROM, P.henDayEggsCum)),
    bandMidpointSeries({ key: 'henHousedEggs', label: 'Hen-housed eggs, cumulative', unit: 'eggs/hen', decimals: 2 }, bandFrom(LAY_FROM, P.henHousedEggsCum)),
    publishedSeries({ key: 'eggWeight', label: 'Egg weight', unit: 'g', decimals: 2 }, eggWeight),
    derivedSeries(
      { key: 'eggMass', label: 'Egg mass per hen-day', unit: 'g/hen/day', decimals: 2 },
      henDay.points.map(([age, pct], i) => [age, (pct * eggWeight[i]![1]) / 100] as const),
      'hen-day % (band midpoint) × egg weight ÷ 100: the guide prints egg mass only as the cumulative kg per hen housed',
    ),
    publishedSeries(
      { key: 'henHousedEggMass', label: 'Hen-housed egg mass, cumulative', unit: 'kg', decimals: 2 },
      fromAge(LAY_FROM + 1, P.henHousedEggMassCumKg),
    ),
    publishedSeries({ key: 'rearingMortality', label: 'Mortality in rearing, cumulative from the day-old chicks', unit: '%', decimals: 3 }, rearingMortality),
    derivedSeries(
      { key: 'rearingLivability', label: 'Livability in rearing, from the day-old chicks', unit: '%', decimals: 3 },
      livability(rearingMortality),
      '100 − the printed cumulative rearing mortality %',
    ),
    publishedSeries({ key: 'mortality', label: 'Mortality in lay, cumulative from housing at 18 weeks', unit: '%', decimals: 3 }, layingMortality),
    derivedSeries(
      { key: 'livability', label: 'Livability in lay, from housing at 18 weeks', unit: '%', decimals: 3 },
      livability(layingMortality),
      '100 − the printed cumulative mortality % in lay',
    ),
  ],
  note: 'One transcription of the guide, its edition year not printed: checked against the guide’s own arithmetic. Banded columns are served as the band midpoint (basis "band midpoint", the printed band alongside); egg mass per hen-day and livability are derived (basis "derived").',
};
