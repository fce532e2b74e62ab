import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { breedStandards } from '../../shared/services/analytics/reports.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The breed standards shipped as data: source, edition, official or approximate, every tabulated point (linear interpolation between them)',
    description:
      'Flocks whose `breed` matches a name or alias (case, spaces and dashes ignored) are compared with it; other breeds answer "no standard". Ross 308 and Cobb 500: daily, days 0–56. Hy-Line Brown: weekly, weeks 1–100 (rearing and lay; its bands served as their midpoints, `basis: band midpoint`, the printed band in each point\'s `low` and `high`). Lohmann Brown-Classic: weekly, body weight weeks 1–95, production weeks 19–95.',
    responses: { 200: { description: 'The standards', schema: 'BreedStandardsResponse' } },
  },
  async () => ok(breedStandards(), 'Breed standards'),
);
