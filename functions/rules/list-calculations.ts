import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { calculationCatalogue } from '../../shared/services/rules/definitions.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The calculation templates a rule can watch: id, name, formula, unit, inputs and public source (from the KPI engine)',
    description: 'Requires view_analytics. Sensor metrics (temperatureC, nh3Ppm, co2Ppm, humidityPct, …) may also be a rule’s input, as hourly averages.',
    responses: { 200: { description: 'The templates', schema: 'CalculationsResponse' } },
  },
  async () => ok(calculationCatalogue(), 'Calculation templates'),
);
