import { Invalid } from '../../shared/errors.js';

/** The field problems a pure decision names when it refuses its input (it throws anything else on). */
export function detailsOf(decide: () => unknown) {
  try {
    decide();
  } catch (err) {
    if (err instanceof Invalid) return err.details;
    throw err;
  }
  throw new Error('not refused');
}
