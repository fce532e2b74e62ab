import { incidentActionRoute } from './incident-action.js';

export const handler = incidentActionRoute('resolve', 'Resolve an incident: the problem is gone (triggered or acknowledged → resolved)', 'resolved');
