import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { houseConditions } from '../../shared/services/iot/reads.js';
import { houseConditionsParams, houseConditionsQuery } from '../../schemas/compiled/iot.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The conditions in a house now: the latest value of each metric, its age and its status against the thresholds',
    description:
      'Requires view_analytics. Temperature is checked against the age curve of the house’s flock (±2 °C), humidity, NH₃, CO₂, CO and light against the ' +
      'analytics thresholds. `farmId` may be left out when the house is in one of your farms. Latest values move at most once a minute per device.',
    params: houseConditionsParams,
    query: houseConditionsQuery,
    responses: {
      200: { description: 'Latest values, their status, and the house’s devices', schema: 'HouseConditionsResponse' },
      404: { description: 'No such house, or not yours' },
    },
  },
  async ({ params, query, user }) => ok(await houseConditions(user, params.houseId, query.farmId)),
);
