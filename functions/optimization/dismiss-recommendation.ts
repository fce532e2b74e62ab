import { decisionHandler } from './decide-recommendation.js';

export const handler = decisionHandler('dismissed');
