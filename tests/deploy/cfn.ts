/**
 * Reading a packaged, split CloudFormation template set the way CloudFormation would: a value in a
 * nested stack that is `{Ref: <parameter>}` is whatever the root passes for that parameter, and a
 * root value `{Fn::GetAtt: [<nested stack>, Outputs.X]}` is that nested stack's output. Following
 * these proves the split wiring is complete (every parameter passed, every output present).
 */
import type { PackagedStack, Template } from '../../scripts/package.js';

type Resource = Template['Resources'][string];

/** A resource somewhere in the stack set, optionally one of its attributes. */
export interface Target {
  stack: string;
  id: string;
  resource: Resource;
  att?: string;
}

export class StackSet {
  readonly byName: Map<string, Template>;

  constructor(readonly stacks: PackagedStack[]) {
    this.byName = new Map(stacks.map((s) => [s.name, s.template]));
  }

  get root(): Template {
    return this.byName.get('root')!;
  }

  template(stack: string): Template {
    const t = this.byName.get(stack);
    if (!t) throw new Error(`no stack ${stack}`);
    return t;
  }

  /** Every resource of every stack, with the stack holding it. */
  *resources(): Generator<{ stack: string; id: string; resource: Resource }> {
    for (const s of this.stacks) for (const [id, resource] of Object.entries(s.template.Resources)) yield { stack: s.name, id, resource };
  }

  ofType(type: string): Array<{ stack: string; id: string; resource: Resource }> {
    return [...this.resources()].filter((r) => r.resource.Type === type);
  }

  /** Resolves Ref / Fn::GetAtt across parameters and outputs to the resource it designates. */
  resolve(stack: string, value: unknown, depth = 0): Target {
    if (depth > 10) throw new Error(`reference loop resolving ${JSON.stringify(value)} in ${stack}`);
    const t = this.template(stack);
    if (value && typeof value === 'object' && 'Ref' in value) {
      const ref = (value as { Ref: string }).Ref;
      if (t.Resources[ref]) return { stack, id: ref, resource: t.Resources[ref] };
      if (stack !== 'root' && t.Parameters && ref in t.Parameters) {
        const passed = (this.root.Resources[stack]?.Properties?.Parameters as Record<string, unknown> | undefined)?.[ref];
        if (passed === undefined) throw new Error(`${stack}: parameter ${ref} is not passed by the root stack`);
        return this.resolve('root', passed, depth + 1);
      }
      throw new Error(`${stack}: Ref ${ref} designates nothing`);
    }
    if (value && typeof value === 'object' && 'Fn::GetAtt' in value) {
      const getAtt = (value as { 'Fn::GetAtt': string | string[] })['Fn::GetAtt'];
      const [id, ...rest] = Array.isArray(getAtt) ? getAtt : getAtt.split('.');
      const att = rest.join('.');
      const resource = t.Resources[id!];
      if (!resource) throw new Error(`${stack}: Fn::GetAtt ${id} designates nothing`);
      if (resource.Type === 'AWS::CloudFormation::Stack' && att.startsWith('Outputs.')) {
        const output = (this.template(id!).Outputs as Record<string, { Value: unknown }> | undefined)?.[att.slice('Outputs.'.length)];
        if (!output) throw new Error(`${id} has no output ${att}`);
        return this.resolve(id!, output.Value, depth + 1);
      }
      return { stack, id: id!, resource, att };
    }
    throw new Error(`${stack}: cannot resolve ${JSON.stringify(value)}`);
  }

  /** The URL path of an API Gateway resource id value (root resource → ''). */
  apiPath(stack: string, value: unknown): string {
    const target = this.resolve(stack, value);
    if (target.resource.Type === 'AWS::ApiGateway::RestApi' && target.att === 'RootResourceId') return '';
    if (target.resource.Type !== 'AWS::ApiGateway::Resource') throw new Error(`${target.stack}/${target.id} is not an API Gateway resource`);
    const props = target.resource.Properties as { ParentId: unknown; PathPart: string };
    return `${this.apiPath(target.stack, props.ParentId)}/${props.PathPart}`;
  }

  /** The Lambda function an API Gateway method integrates with. */
  methodFunction(stack: string, method: Resource): Target {
    const uri = (method.Properties as { Integration?: { Uri?: unknown } }).Integration?.Uri;
    const candidates = references(uri).filter((v) => 'Fn::GetAtt' in v || ('Ref' in v && !String(v.Ref).startsWith('AWS::')));
    for (const v of candidates) {
      const target = this.resolve(stack, v);
      if (target.resource.Type === 'AWS::Lambda::Function') return target;
    }
    throw new Error(`method in ${stack} integrates with no Lambda function`);
  }
}

/** Every Ref / Fn::GetAtt object inside a value. */
export function references(value: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) references(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('Ref' in o || 'Fn::GetAtt' in o) out.push(o);
    else for (const v of Object.values(o)) references(v, out);
  }
  return out;
}

/** Logical ids a resource depends on inside its own template (DependsOn, Ref, Fn::GetAtt, Fn::Sub). */
export function dependencies(template: Template, id: string): string[] {
  const r = template.Resources[id]!;
  const deps = new Set<string>([r.DependsOn ?? []].flat());
  for (const ref of references(r.Properties)) {
    const target = 'Ref' in ref ? (ref.Ref as string) : [ref['Fn::GetAtt'] as string | string[]].flat()[0]!.split('.')[0]!;
    deps.add(target);
  }
  const subs = JSON.stringify(r.Properties ?? {}).matchAll(/\$\{([A-Za-z0-9]+)(?:\.[A-Za-z0-9.]+)?\}/g);
  for (const m of subs) deps.add(m[1]!);
  return [...deps].filter((d) => d in template.Resources && d !== id);
}

/** A dependency cycle inside one template, or undefined. */
export function findCycle(template: Template): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of dependencies(template, id)) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of Object.keys(template.Resources)) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Every string inside a value, with a JSON-ish path for messages. */
export function* strings(value: unknown, path = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* strings(v, path ? `${path}.${k}` : k);
}
