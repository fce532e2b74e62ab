import { completeRoute } from './occurrence-action.js';

export const handler = completeRoute();
