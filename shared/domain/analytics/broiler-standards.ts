/**
 * The broiler standards alone (Ross 308, Cobb 500) and their lookup: what the density check ahead of a
 * placement needs (a broiler's weight up to its harvest), without the layer guides' tables
 * (./breed-standards.ts holds every breed's).
 */
import { standardNamed } from './standard-lookup.js';
import { COBB_500 } from './standards/cobb-500.js';
import { ROSS_308 } from './standards/ross-308.js';
import type { BreedStandard } from './standards/types.js';

export const BROILER_STANDARDS: readonly BreedStandard[] = [ROSS_308, COBB_500];

/** The shipped broiler standard of this breed, or null. */
export const findBroilerStandard = (breed: string | null | undefined): BreedStandard | null => standardNamed(BROILER_STANDARDS, breed, 'broiler');
