import { transferActionRoute } from './transfer-action.js';

export const handler = transferActionRoute(
  'cancel',
  'Cancel a transfer (requested or approved → cancelled)',
  'a user of the sending (requesting) farm',
  'A completed transfer cannot be cancelled. ',
  '',
);
