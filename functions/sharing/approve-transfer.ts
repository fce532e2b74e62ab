import { transferActionRoute } from './transfer-action.js';

export const handler = transferActionRoute(
  'approve',
  'Approve a transfer (requested → approved)',
  'a user of the receiving farm',
  'The receiving farm accepts what the sending farm offered. ',
  '',
);
