/**
 * Conditions of conditional writes, as values: repositories and the commit say *what* must hold
 * (`version(3)`, `isNew()`, `atLeast('kg', 80)`), and `compileCondition` alone writes the
 * ConditionExpression, its placeholders and values. No other module spells an expression.
 */
export type Condition =
  | { op: 'exists' | 'absent'; field: string }
  | { op: '=' | '<>' | '<' | '<=' | '>' | '>='; field: string; value: unknown }
  | { op: 'sizeBelow'; field: string; value: number }
  | { op: 'contains' | 'beginsWith'; field: string; value: unknown }
  | { op: 'and' | 'or'; of: Condition[] }
  | { op: 'not'; of: Condition };

/** The item exists (its partition key is there). */
export const exists = (field = 'PK'): Condition => ({ op: 'exists', field });
/** The item (or one attribute) is absent: a create never overwrites. */
export const absent = (field = 'PK'): Condition => ({ op: 'absent', field });
export const isNew = (): Condition => absent('PK');
export const eq = (field: string, value: unknown): Condition => ({ op: '=', field, value });
export const ne = (field: string, value: unknown): Condition => ({ op: '<>', field, value });
export const lt = (field: string, value: unknown): Condition => ({ op: '<', field, value });
export const le = (field: string, value: unknown): Condition => ({ op: '<=', field, value });
export const gt = (field: string, value: unknown): Condition => ({ op: '>', field, value });
export const atLeast = (field: string, value: unknown): Condition => ({ op: '>=', field, value });
export const sizeBelow = (field: string, value: number): Condition => ({ op: 'sizeBelow', field, value });
export const contains = (field: string, value: unknown): Condition => ({ op: 'contains', field, value });
export const beginsWith = (field: string, value: string): Condition => ({ op: 'beginsWith', field, value });
export const not = (of: Condition): Condition => ({ op: 'not', of });

const flatten = (op: 'and' | 'or', of: Array<Condition | undefined | false>): Condition[] =>
  of.filter((c): c is Condition => !!c).flatMap((c) => (c.op === op ? c.of : [c]));

/** Every condition holds (undefined and false entries are skipped, so optional parts read naturally). */
export function all(...of: Array<Condition | undefined | false>): Condition {
  const parts = flatten('and', of);
  return parts.length === 1 ? parts[0]! : { op: 'and', of: parts };
}
export function any(...of: Array<Condition | undefined | false>): Condition {
  const parts = flatten('or', of);
  return parts.length === 1 ? parts[0]! : { op: 'or', of: parts };
}

/** A condition that asks nothing (`all()` of only skipped parts): a write with it is unconditional. */
export const isTrivial = (c: Condition | undefined): boolean => c === undefined || ((c.op === 'and' || c.op === 'or') && c.of.length === 0);

/** The field is absent or holds `value` (a counter or marker that starts out missing). */
export const absentOr = (field: string, value: unknown): Condition => any(absent(field), eq(field, value));

/** The item exists at the version read: the optimistic-concurrency condition of every change. */
export const atVersion = (version: number): Condition => all(exists(), eq('version', version));

export interface CompiledCondition {
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * One condition as DynamoDB's expression. Placeholders are `#c0…`/`:c0…` (prefix `c`, or the one given)
 * so they never collide with an update expression's own names; a field path `a.b` names each part.
 */
export function compileCondition(condition: Condition, prefix = 'c'): CompiledCondition {
  if (isTrivial(condition)) throw new Error('a condition that asks nothing has no expression');
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const byName = new Map<string, string>();
  let v = 0;
  const name = (path: string) =>
    path
      .split('.')
      .map((part) => {
        let ph = byName.get(part);
        if (!ph) {
          ph = `#${prefix}${byName.size}`;
          byName.set(part, ph);
          names[ph] = part;
        }
        return ph;
      })
      .join('.');
  const value = (x: unknown) => {
    const ph = `:${prefix}${v++}`;
    values[ph] = x;
    return ph;
  };
  const render = (c: Condition, nested: boolean): string => {
    switch (c.op) {
      case 'exists':
        return `attribute_exists(${name(c.field)})`;
      case 'absent':
        return `attribute_not_exists(${name(c.field)})`;
      case 'sizeBelow':
        return `size(${name(c.field)}) < ${value(c.value)}`;
      case 'contains':
        return `contains(${name(c.field)}, ${value(c.value)})`;
      case 'beginsWith':
        return `begins_with(${name(c.field)}, ${value(c.value)})`;
      case 'not':
        return `NOT (${render(c.of, false)})`;
      case 'and':
      case 'or': {
        const text = c.of.map((x) => render(x, true)).join(c.op === 'and' ? ' AND ' : ' OR ');
        return nested && c.of.length > 1 ? `(${text})` : text;
      }
      default:
        return `${name(c.field)} ${c.op} ${value(c.value)}`;
    }
  };
  const expression = render(condition, false);
  return {
    ConditionExpression: expression,
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

/** The condition's expression merged into a command's own names and values (an UpdateItem's, a Query's none). */
export function withCondition<T extends { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> }>(
  input: T,
  condition: Condition | undefined,
): T & Partial<CompiledCondition> {
  if (!condition || isTrivial(condition)) return input;
  const c = compileCondition(condition);
  const names = { ...input.ExpressionAttributeNames, ...c.ExpressionAttributeNames };
  const values = { ...input.ExpressionAttributeValues, ...c.ExpressionAttributeValues };
  return {
    ...input,
    ConditionExpression: c.ConditionExpression,
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}
