import { transferActionRoute } from './transfer-action.js';

export const handler = transferActionRoute('cancel', {
  summary: 'Cancel a transfer (requested or approved → cancelled)',
  who: 'a user of the sending (requesting) farm',
  extra: 'A completed transfer cannot be cancelled. ',
});
