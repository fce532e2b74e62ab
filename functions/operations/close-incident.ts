import { incidentActionRoute } from './incident-action.js';

export const handler = incidentActionRoute(
  'close',
  'Close a resolved incident after review; a disease suspicion lifts the farm’s movement restriction',
  'closed',
);
