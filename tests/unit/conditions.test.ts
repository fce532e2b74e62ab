import { describe, expect, it } from 'vitest';
import { absentOr, all, any, atLeast, atVersion, compileCondition, eq, isNew, isTrivial, not, sizeBelow } from '../../shared/db/conditions.js';

describe('conditions compile to one DynamoDB expression', () => {
  it('a create never overwrites', () => {
    expect(compileCondition(isNew())).toEqual({ ConditionExpression: 'attribute_not_exists(#c0)', ExpressionAttributeNames: { '#c0': 'PK' } });
  });

  it('a change holds at the version read; names are reused and values numbered', () => {
    const c = compileCondition(all(atVersion(3), eq('status', 'active'), atLeast('kg', 80)));
    expect(c.ConditionExpression).toBe('attribute_exists(#c0) AND #c1 = :c0 AND #c2 = :c1 AND #c3 >= :c2');
    expect(c.ExpressionAttributeNames).toEqual({ '#c0': 'PK', '#c1': 'version', '#c2': 'status', '#c3': 'kg' });
    expect(c.ExpressionAttributeValues).toEqual({ ':c0': 3, ':c1': 'active', ':c2': 80 });
  });

  it('nested alternatives are parenthesised, skipped parts leave no trace', () => {
    const c = compileCondition(all(undefined, absentOr('withdrawalRev', 0), false, not(sizeBelow('farmIds', 5))));
    expect(c.ConditionExpression).toBe('(attribute_not_exists(#c0) OR #c0 = :c0) AND NOT (size(#c1) < :c1)');
  });

  it('a lone alternative is itself; a dotted path names each part', () => {
    expect(any(eq('a', 1))).toEqual(eq('a', 1));
    expect(compileCondition(eq('lock.type', 'manual')).ConditionExpression).toBe('#c0.#c1 = :c0');
  });
});

describe('a condition that asks nothing', () => {
  it('is trivial, and has no expression', () => {
    expect(isTrivial(all(undefined, false))).toBe(true);
    expect(isTrivial(all(eq('a', 1)))).toBe(false);
    expect(() => compileCondition(all())).toThrow('asks nothing');
  });
});
