import { orderActionRoute } from './order-action.js';

export const handler = orderActionRoute('cancel', 'Cancel a purchase order not yet fully received (goods received stay received)', 'cancelled');
