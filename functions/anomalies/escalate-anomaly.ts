import { httpHandler } from '../../shared/http/handler.js';
import { created, ok } from '../../shared/http/responses.js';
import { escalateAnomaly } from '../../shared/services/anomalies/lifecycle.js';
import { anomalyParams, escalateAnomalyBody } from '../../schemas/compiled/anomalies.js';

export const handler = httpHandler(
  {
    capability: 'manage_incidents',
    summary: 'Escalate an anomaly to an incident (once: escalating again answers the same incident)',
    description:
      'Requires manage_incidents. Opens an incident linked to the anomaly (and its flock) with dedup key `anomaly:<id>`; its severity follows the ' +
      'anomaly’s (critical → critical, warning → high, info → low) and its category the metric (water, climate, welfare, feed, else other) unless ' +
      'given; the description states observed against expected and the first hypothesis with its check. The anomaly keeps the incident’s id and is ' +
      'acknowledged if it was open. A resolved or dismissed anomaly that was never escalated answers 409.',
    params: anomalyParams,
    body: escalateAnomalyBody,
    responses: {
      201: { description: 'Escalated: the anomaly and the incident opened for it', schema: 'AnomalyEscalationResponse' },
      200: { description: 'Already escalated: the anomaly and its incident', schema: 'AnomalyEscalationResponse' },
      404: { description: 'No such anomaly, or one of a farm you cannot see' },
      409: { description: 'Resolved or dismissed, or changed concurrently' },
    },
  },
  async ({ params, body, ctx }) => {
    const escalation = await escalateAnomaly(ctx, params.anomalyId, body);
    const data = { anomaly: escalation.anomaly, incident: escalation.incident };
    return escalation.created ? created(data, 'Anomaly escalated') : ok(data, 'Anomaly already escalated');
  },
);
