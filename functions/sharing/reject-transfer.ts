import { transferActionRoute } from './transfer-action.js';

export const handler = transferActionRoute('reject', { summary: 'Reject a transfer (requested → rejected)', who: 'a user of the receiving farm' });
