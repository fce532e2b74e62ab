import { anomalyActionRoute } from './anomaly-action.js';

export const handler = anomalyActionRoute('acknowledge', 'Acknowledge an anomaly: someone is looking into it (open → acknowledged)', 'acknowledged');
