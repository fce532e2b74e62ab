import { transferActionRoute } from './transfer-action.js';

export const handler = transferActionRoute('reject', 'Reject a transfer (requested → rejected)', 'a user of the receiving farm', '', '');
