import { bandFrom, fromAge, publishedSeries, type BreedStandard } from './types.js';

/**
 * Lohmann Breeders GmbH (Cuxhaven), LOHMANN BROWN-CLASSIC Layers, Management Guide, Cage Housing
 * (lohmann-breeders.com, file LOHMANN-Brown-Classic-Cage.pdf): Table 17 "Body Weight Development" (weeks
 * 1–95, the published weight average and its range; Table 4 repeats weeks 1–19) and the "Performance
 * Goals" table (weeks 19–95), transcribed as printed. The edition year is not printed in the transcription.
 * Transcription: the public repository github.com/dominicdesy/intelia-expert,
 * "LOHMANN-Brown-Classic-Cage_extracted.txt" at commit 092334a3e9cb4584eb5366dd4f48f45cac81dc3b; no second
 * transcription was found, the rows pass the guide's own arithmetic (tests/unit/layer-standards.test.ts).
 *
 * Every value is a printed target (the body weight is the guide's own "Weight Average", the midpoint of the
 * range printed beside it). The guide prints no weekly feed intake (only "110–120 g/day" in lay), no weekly
 * livability (only the totals: rearing 97–98 %, laying 93–95 %) and no water: no such series here.
 */
export const LOHMANN_BROWN_CLASSIC_TABLES = {
  /** Table 17, weeks 1–95 (week 1 first): the weight average (g) and the printed range. Performance Goals, weeks 19–95 (week 19 first): the rest. */
  bodyWeightG: [
    75, 130, 195, 273, 366, 469, 573, 677, 777, 873, 963, 1047, 1128, 1205, 1279, 1351, 1421, 1493, 1565, 1635, 1701, 1760, 1808, 1846, 1874, 1893, 1906, 1914,
    1918, 1921, 1924, 1926, 1929, 1932, 1934, 1936, 1939, 1941, 1944, 1946, 1949, 1952, 1954, 1956, 1959, 1961, 1964, 1966, 1969, 1972, 1974, 1976, 1979, 1981,
    1985, 1986, 1990, 1992, 1994, 1996, 1999, 2001, 2004, 2006, 2009, 2012, 2014, 2016, 2019, 2021, 2024, 2026, 2029, 2032, 2034, 2036, 2039, 2041, 2044, 2046,
    2047, 2048, 2049, 2050, 2051, 2052, 2053, 2054, 2054, 2055, 2056, 2056, 2057, 2057, 2058,
  ],
  bodyWeightRangeG: {
    low: [
      73, 126, 189, 265, 355, 455, 556, 657, 754, 847, 934, 1016, 1094, 1169, 1241, 1310, 1378, 1448, 1518, 1586, 1650, 1707, 1754, 1791, 1818, 1836, 1849,
      1857, 1860, 1863, 1866, 1868, 1871, 1874, 1876, 1878, 1881, 1883, 1886, 1888, 1891, 1893, 1895, 1897, 1900, 1902, 1905, 1907, 1910, 1913, 1915, 1917,
      1920, 1922, 1925, 1926, 1930, 1932, 1934, 1936, 1939, 1941, 1944, 1946, 1949, 1952, 1954, 1956, 1958, 1960, 1963, 1965, 1968, 1971, 1973, 1975, 1978,
      1980, 1983, 1985, 1986, 1987, 1988, 1989, 1989, 1990, 1991, 1992, 1992, 1993, 1994, 1994, 1995, 1995, 1996,
    ],
    high: [
      77, 134, 201, 281, 377, 483, 590, 697, 800, 899, 992, 1078, 1162, 1241, 1317, 1392, 1464, 1538, 1612, 1684, 1752, 1813, 1862, 1901, 1930, 1950, 1963,
      1971, 1976, 1979, 1982, 1984, 1987, 1990, 1992, 1994, 1997, 1999, 2002, 2004, 2007, 2011, 2013, 2015, 2018, 2020, 2023, 2025, 2028, 2031, 2033, 2035,
      2038, 2040, 2045, 2046, 2050, 2052, 2054, 2056, 2059, 2061, 2064, 2066, 2069, 2072, 2074, 2076, 2080, 2082, 2085, 2087, 2090, 2093, 2095, 2097, 2100,
      2102, 2105, 2107, 2108, 2109, 2110, 2112, 2113, 2114, 2115, 2116, 2116, 2117, 2118, 2118, 2119, 2119, 2120,
    ],
  },
  henHousedEggsCum: [
    0.7, 3.9, 8.4, 14, 20.2, 26.6, 33, 39.6, 46.1, 52.7, 59.2, 65.8, 72.4, 79, 85.6, 92.2, 98.7, 105.2, 111.8, 118.3, 124.7, 131.2, 137.6, 144, 150.3, 156.7,
    163, 169.3, 175.5, 181.8, 188, 194.1, 200.2, 206.3, 212.4, 218.4, 224.4, 230.4, 236.3, 242.2, 248, 253.8, 259.5, 265.2, 270.9, 276.5, 282.1, 287.6, 293.1,
    298.6, 304, 309.4, 314.7, 320, 325.2, 330.4, 335.6, 340.7, 345.8, 350.8, 355.8, 360.8, 365.7, 370.5, 375.4, 380.2, 384.9, 389.6, 394.2, 398.9, 403.4, 408,
    412.5, 416.9, 421.3, 425.7, 430,
  ],
  henHousedPct: [
    10, 45, 65, 80, 88, 91.5, 92.5, 93.1, 93.5, 93.8, 94, 94.1, 94.1, 94.1, 94, 93.8, 93.6, 93.4, 93.1, 92.7, 92.4, 92, 91.7, 91.3, 91, 90.6, 90.2, 89.8, 89.4,
    89, 88.6, 88.1, 87.6, 87.1, 86.6, 86.1, 85.6, 85, 84.5, 83.9, 83.3, 82.7, 82.1, 81.5, 80.9, 80.3, 79.7, 79.1, 78.5, 77.9, 77.3, 76.7, 76.1, 75.5, 74.9,
    74.3, 73.7, 73.1, 72.5, 71.9, 71.3, 70.7, 70.1, 69.5, 68.9, 68.3, 67.7, 67.1, 66.5, 65.9, 65.3, 64.7, 64.1, 63.5, 62.9, 62.3, 61.7,
  ],
  henDayPct: [
    10, 45, 65.1, 80.2, 88.4, 92, 93.1, 93.8, 94.3, 94.7, 95, 95.2, 95.3, 95.3, 95.3, 95.2, 95.1, 95, 94.8, 94.5, 94.3, 94, 93.7, 93.5, 93.2, 92.9, 92.6, 92.3,
    91.9, 91.6, 91.3, 90.9, 90.5, 90, 89.6, 89.2, 88.8, 88.3, 87.8, 87.3, 86.8, 86.3, 85.7, 85.2, 84.6, 84.1, 83.6, 83, 82.5, 81.9, 81.4, 80.8, 80.3, 79.7,
    79.2, 78.6, 78.1, 77.5, 77, 76.4, 75.9, 75.3, 74.8, 74.2, 73.6, 73.1, 72.5, 71.9, 71.4, 70.8, 70.2, 69.7, 69.1, 68.5, 67.9, 67.4, 66.8,
  ],
  eggWeightG: [
    45, 47.5, 50, 52.5, 54.7, 56.5, 57.9, 58.9, 59.7, 60.4, 61, 61.4, 61.7, 62, 62.3, 62.6, 62.9, 63.2, 63.4, 63.7, 63.9, 64.2, 64.4, 64.6, 64.7, 64.9, 65.1,
    65.3, 65.5, 65.7, 65.8, 66, 66.1, 66.3, 66.4, 66.5, 66.6, 66.7, 66.8, 66.9, 67, 67.1, 67.2, 67.3, 67.4, 67.5, 67.6, 67.7, 67.8, 67.9, 68, 68.1, 68.2, 68.3,
    68.3, 68.4, 68.4, 68.5, 68.5, 68.6, 68.6, 68.7, 68.7, 68.8, 68.8, 68.9, 68.9, 69, 69, 69.1, 69.1, 69.2, 69.2, 69.3, 69.3, 69.4, 69.4,
  ],
  eggWeightCumAvgG: [
    45, 47, 48.6, 50.2, 51.6, 52.8, 53.8, 54.6, 55.3, 56, 56.5, 57, 57.4, 57.8, 58.2, 58.5, 58.8, 59, 59.3, 59.5, 59.8, 60, 60.2, 60.4, 60.6, 60.7, 60.9, 61.1,
    61.2, 61.4, 61.5, 61.7, 61.8, 61.9, 62.1, 62.2, 62.3, 62.4, 62.5, 62.6, 62.8, 62.9, 63, 63, 63.1, 63.2, 63.3, 63.4, 63.5, 63.6, 63.6, 63.7, 63.8, 63.9,
    63.9, 64, 64.1, 64.2, 64.2, 64.3, 64.3, 64.4, 64.5, 64.5, 64.6, 64.6, 64.7, 64.7, 64.8, 64.8, 64.9, 64.9, 65, 65, 65.1, 65.1, 65.2,
  ],
  eggMassGPerHenDay: [
    4.5, 21.4, 32.6, 42.1, 48.3, 52, 53.9, 55.2, 56.3, 57.2, 57.9, 58.4, 58.8, 59.1, 59.4, 59.6, 59.8, 60, 60.1, 60.2, 60.2, 60.3, 60.3, 60.3, 60.4, 60.3, 60.3,
    60.3, 60.3, 60.2, 60.1, 60, 59.8, 59.7, 59.6, 59.4, 59.2, 58.9, 58.7, 58.5, 58.2, 57.9, 57.6, 57.4, 57.1, 56.8, 56.5, 56.2, 56, 55.7, 55.4, 55.1, 54.8,
    54.5, 54.1, 53.8, 53.5, 53.1, 52.8, 52.4, 52.1, 51.7, 51.4, 51, 50.7, 50.3, 50, 49.6, 49.3, 48.9, 48.6, 48.2, 47.8, 47.5, 47.1, 46.8, 46.4,
  ],
  henHousedEggMassCumKg: [
    0.03, 0.18, 0.41, 0.7, 1.04, 1.4, 1.78, 2.16, 2.55, 2.95, 3.35, 3.75, 4.16, 4.57, 4.98, 5.39, 5.8, 6.21, 6.63, 7.04, 7.45, 7.87, 8.28, 8.69, 9.1, 9.52,
    9.93, 10.34, 10.75, 11.16, 11.57, 11.97, 12.38, 12.78, 13.18, 13.59, 13.99, 14.38, 14.78, 15.17, 15.56, 15.95, 16.34, 16.72, 17.1, 17.48, 17.86, 18.24,
    18.61, 18.98, 19.35, 19.71, 20.08, 20.44, 20.8, 21.15, 21.51, 21.86, 22.21, 22.55, 22.89, 23.23, 23.57, 23.91, 24.24, 24.57, 24.89, 25.22, 25.54, 25.86,
    26.17, 26.49, 26.8, 27.11, 27.41, 27.72, 28.02,
  ],
} as const;

const T = LOHMANN_BROWN_CLASSIC_TABLES;
const LAY_FROM = 19;

/** Lohmann Brown-Classic layers, by week of age: body weight weeks 1–95, production weeks 19–95 (see the module note). */
export const LOHMANN_BROWN_CLASSIC: BreedStandard = {
  id: 'lohmann-brown-classic',
  name: 'Lohmann Brown-Classic',
  birdType: 'layer',
  aliases: ['Lohmann Brown-Classic', 'Lohmann Brown Classic', 'Lohmann Brown', 'LB-Classic'],
  source: {
    publisher: 'Lohmann Breeders',
    document:
      'LOHMANN BROWN-CLASSIC Layers, Management Guide, Cage Housing (lohmann-breeders.com, LOHMANN-Brown-Classic-Cage.pdf): Table 17 Body Weight Development (weeks 1–95) and Performance Goals (weeks 19–95)',
    transcription: 'github.com/dominicdesy/intelia-expert, commit 092334a3e9cb4584eb5366dd4f48f45cac81dc3b; sources and checks in docs/breed-standards.md',
  },
  edition: null,
  status: 'approximate',
  ageUnit: 'week',
  series: [
    publishedSeries(
      { key: 'bodyWeight', label: 'Body weight (weight average)', unit: 'g', decimals: 1 },
      fromAge(1, T.bodyWeightG),
      bandFrom(1, T.bodyWeightRangeG),
    ),
    publishedSeries({ key: 'henDayPct', label: 'Hen-day production', unit: '%', decimals: 2 }, fromAge(LAY_FROM, T.henDayPct)),
    publishedSeries({ key: 'henHousedPct', label: 'Hen-housed production', unit: '%', decimals: 2 }, fromAge(LAY_FROM, T.henHousedPct)),
    publishedSeries({ key: 'henHousedEggs', label: 'Hen-housed eggs, cumulative', unit: 'eggs/hen', decimals: 2 }, fromAge(LAY_FROM, T.henHousedEggsCum)),
    publishedSeries({ key: 'eggWeight', label: 'Egg weight', unit: 'g', decimals: 2 }, fromAge(LAY_FROM, T.eggWeightG)),
    publishedSeries({ key: 'eggWeightAverage', label: 'Egg weight, cumulative average', unit: 'g', decimals: 2 }, fromAge(LAY_FROM, T.eggWeightCumAvgG)),
    publishedSeries({ key: 'eggMass', label: 'Egg mass per hen-day', unit: 'g/hen/day', decimals: 2 }, fromAge(LAY_FROM, T.eggMassGPerHenDay)),
    publishedSeries({ key: 'henHousedEggMass', label: 'Hen-housed egg mass, cumulative', unit: 'kg', decimals: 3 }, fromAge(LAY_FROM, T.henHousedEggMassCumKg)),
  ],
  note: 'One transcription of the guide, its edition year not printed: checked against the guide’s own arithmetic. No weekly feed intake, water or livability is published.',
};
