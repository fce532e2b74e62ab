import { orderActionRoute } from './order-action.js';

export const handler = orderActionRoute('place', 'Place a draft purchase order with the supplier (draft → ordered; records orderedAt)', 'placed');
