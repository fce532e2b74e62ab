import { describe, expect, it } from 'vitest';
import {
  ADMIN_ONLY,
  ALL_CAPABILITIES,
  ROLES,
  ROLE_CAPABILITIES,
  ROLE_ORDER,
  capabilityGrantProblems,
  catalogue,
  effectiveCapabilities,
} from '../../shared/domain/capabilities.js';

describe('capabilities', () => {
  it('keeps the six names of the interface contract', () => {
    expect(ALL_CAPABILITIES).toEqual(
      expect.arrayContaining(['edit_analytics', 'view_analytics', 'manage_flocks', 'create_movement', 'update_analytics_config', 'manage_system']),
    );
  });

  it('admin holds everything; an explicit list replaces the role defaults; admin-only ones never reach non-admins', () => {
    expect(effectiveCapabilities('admin', ['view_analytics'])).toEqual(ALL_CAPABILITIES);
    expect(effectiveCapabilities('worker', null)).toEqual(['view_analytics', 'create_movement', 'complete_tasks']);
    expect(effectiveCapabilities('worker', ['manage_flocks'])).toEqual(['manage_flocks']);
    expect(effectiveCapabilities('manager', ['manage_users', 'update_analytics_config', 'bogus', 'view_analytics'])).toEqual(['view_analytics']);
  });

  it('ROLE_ORDER ranks every role, each holding by default every capability of the roles before it ("this role or above")', () => {
    expect([...ROLE_ORDER].sort()).toEqual([...ROLES].sort());
    ROLE_ORDER.forEach((role, i) => {
      for (const lower of ROLE_ORDER.slice(0, i))
        expect(ROLE_CAPABILITIES[role], `${role} ⊇ ${lower}`).toEqual(expect.arrayContaining([...ROLE_CAPABILITIES[lower]]));
    });
  });

  it('no role but admin holds an admin-only capability by default', () => {
    for (const [role, caps] of Object.entries(ROLE_CAPABILITIES)) {
      if (role !== 'admin') expect(caps.filter((c) => ADMIN_ONLY.has(c))).toEqual([]);
    }
  });

  it('names every problem of a grant', () => {
    expect(capabilityGrantProblems('viewer', ['view_analytics'])).toEqual([]);
    expect(capabilityGrantProblems('manager', ['manage_users', 'x'])).toEqual(['"manage_users" is reserved for admins', 'unknown capability "x"']);
    expect(capabilityGrantProblems('admin', ['manage_users'])).toEqual([]);
  });

  it('describes every capability in the catalogue', () => {
    for (const c of catalogue()) expect(c.description.length).toBeGreaterThan(10);
    expect(catalogue().find((c) => c.name === 'create_movement')?.roles).toEqual(['admin', 'manager', 'worker', 'veterinarian']);
  });
});
