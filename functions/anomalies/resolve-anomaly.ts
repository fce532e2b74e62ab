import { anomalyActionRoute } from './anomaly-action.js';

export const handler = anomalyActionRoute(
  'resolve',
  'Resolve an anomaly: the cause was found and dealt with (open or acknowledged → resolved; the next firing raises a new one)',
  'resolved',
);
