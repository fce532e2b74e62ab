import type { ThresholdsConfig } from '../../schemas/analytics-config.js';

/**
 * Drinking-water pH against the thresholds (defaults, docs/domain.md: 6.0–8.0 acceptable, 6.8–7.5
 * typical, below 6.3 performance suffers). Pure: the reading and the thresholds in force.
 */
export type PhAssessment = 'low' | 'below_optimum' | 'acceptable' | 'high';

export function assessPh(pH: number, t: Pick<ThresholdsConfig, 'waterPhMin' | 'waterPhMax' | 'waterPhPerformanceMin'>) {
  const range = { min: t.waterPhMin, max: t.waterPhMax, performanceMin: t.waterPhPerformanceMin };
  if (pH < t.waterPhMin)
    return {
      pH: 'low' as const,
      message: `pH ${pH} is below the acceptable ${t.waterPhMin}: acid water corrodes lines and hurts intake; check the acidifier dose`,
      range,
    };
  if (pH > t.waterPhMax)
    return {
      pH: 'high' as const,
      message: `pH ${pH} is above the acceptable ${t.waterPhMax}: alkaline water weakens chlorine and vaccines; check the source and the treatment`,
      range,
    };
  if (pH < t.waterPhPerformanceMin)
    return { pH: 'below_optimum' as const, message: `pH ${pH} is acceptable but below ${t.waterPhPerformanceMin}, where performance starts to suffer`, range };
  return { pH: 'acceptable' as const, message: `pH ${pH} is within ${t.waterPhMin}–${t.waterPhMax}`, range };
}
