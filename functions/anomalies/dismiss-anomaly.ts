import { anomalyActionRoute } from './anomaly-action.js';

export const handler = anomalyActionRoute(
  'dismiss',
  'Dismiss an anomaly: nothing was wrong (open or acknowledged → dismissed; the next firing raises a new one)',
  'dismissed',
);
