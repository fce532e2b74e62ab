/** Procurement fixtures over HTTP: a farm with its manager, suppliers, draft and placed orders, the farm's feed stock. */
import { expect } from 'vitest';
import { call as rawCall } from './api.js';
import { checkedCall } from './contract.js';
import { userWith } from './accounts.js';
import { otherFarm } from './farms.js';
import { day } from './cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const P = '/api/v1/procurement';
/** Every answer is checked against the closed schema the OpenAPI document gives its operation and status. */
export const call = checkedCall(rawCall);

export async function farmWithManager(name = 'Procurement farm') {
  const farmId = await otherFarm(name);
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => call('POST', `${P}${path}`, { token: manager.token, body, headers });
  const supplier = async (body: Json = {}) => {
    const res = await post('/suppliers', { name: 'Mill & Co', kinds: ['feed', 'chicks'], farmIds: [farmId], contact: { person: 'Ana' }, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Json;
  };
  const order = async (supplierId: string, body: Json = {}) => {
    const res = await post('/orders', {
      farmId,
      supplierId,
      expectedDate: day(5),
      lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 1000, unit: 'kg', unitPrice: 0.5 }],
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Json;
  };
  const placed = async (supplierId: string, body: Json = {}) => {
    const o = await order(supplierId, body);
    const res = await post(`/orders/${o.id}/place`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Json;
  };
  const stockOf = async (feedType: string) => {
    const res = await call('GET', '/api/v1/inventory/stock', { token: manager.token, query: { farmId } });
    expect(res.status).toBe(200);
    return (res.body.data.feed.byType as Json[]).find((f) => f.feedType === feedType)?.kg ?? 0;
  };
  return { farmId, manager, post, supplier, order, placed, stockOf };
}
