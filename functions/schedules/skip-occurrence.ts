import { skipRoute } from './occurrence-action.js';

export const handler = skipRoute();
