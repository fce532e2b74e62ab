import type { Evidence } from '../optimization.js';

/**
 * An optimization recommendation as stored (shared/db/recommendations.ts keys it and lists it per farm and
 * per flock): written by a person or proposed by the system from a cycle's analytics, then accepted or
 * dismissed once.
 */
export interface RecommendationRecord {
  id: string;
  farmId: string;
  flockId: string;
  cycleId: string | null;
  category: string;
  priority: 'low' | 'medium' | 'high';
  description: string;
  expectedBenefit: string;
  status: 'open' | 'accepted' | 'dismissed';
  source: 'user' | 'system';
  rule: string | null;
  evidence: Evidence[];
  decidedAt: string | null;
  decidedBy: string | null;
  decisionNote: string | null;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  version: number;
}
