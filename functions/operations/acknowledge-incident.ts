import { incidentActionRoute } from './incident-action.js';

export const handler = incidentActionRoute('acknowledge', 'Acknowledge an incident: someone is on it (triggered → acknowledged)', 'acknowledged');
