'use strict';
/**
 * Custom splitter for serverless-plugin-split-stacks (custom.splitStacks.custom in serverless.yml):
 * ONE nested stack per route group, the group being the folder of the function's handler
 * (`functions/<group>/<route>.handler` → `<Group>NestedStack`).
 *
 * Into a group's stack go, for each function of the group: its Lambda function, its log group, its
 * permissions, versions, event rules / IoT topic rules, the API Gateway methods that invoke it, and
 * the API Gateway resources (path parts) used by that group only. Everything shared stays in the
 * root stack: the REST API, path parts used by several groups (/api, /api/v1 …), the deployment,
 * API key, usage plan, IAM role, deployment bucket and the table. Nested stacks then only point
 * "up" at the root (parameters), the root only waits on them (the deployment's DependsOn), and no
 * nested stack references another one: no circular dependencies.
 *
 * The mapping is derived from the compiled template itself (handlers and references), not from
 * logical-id prefixes, so a function named e.g. `api` cannot capture `ApiGatewayRestApi`.
 * Resources of any other type return `false` (stay in the root; no built-in strategy applies).
 *
 * Choose the split before the first deploy: CloudFormation cannot reliably move resources between
 * stacks afterwards (the plugin keeps already-deployed resources where they are).
 */

/** Types that follow "their" function into the group's stack. */
const PER_FUNCTION_TYPES = new Set([
  'AWS::Logs::LogGroup',
  'AWS::Logs::SubscriptionFilter',
  'AWS::Lambda::Permission',
  'AWS::Lambda::Version',
  'AWS::Lambda::Alias',
  'AWS::Lambda::EventInvokeConfig',
  'AWS::Lambda::Url',
  'AWS::Lambda::EventSourceMapping',
  'AWS::Events::Rule',
  'AWS::Scheduler::Schedule',
  'AWS::IoT::TopicRule',
]);

const HANDLER_GROUP = /^functions\/([^/]+)\//;

/** Logical ids referenced by a template value (Ref, Fn::GetAtt, Fn::Sub variables). */
function referencedIds(value, resources, out = new Set()) {
  if (Array.isArray(value)) {
    for (const v of value) referencedIds(v, resources, out);
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'Ref' && typeof v === 'string') {
        if (v in resources) out.add(v);
      } else if (key === 'Fn::GetAtt') {
        const id = Array.isArray(v) ? v[0] : String(v).split('.')[0];
        if (id in resources) out.add(id);
      } else if (key === 'Fn::Sub') {
        const text = Array.isArray(v) ? v[0] : v;
        for (const m of String(text).matchAll(/\$\{([A-Za-z0-9]+)(?:\.[A-Za-z0-9.]+)?\}/g)) if (m[1] in resources) out.add(m[1]);
        if (Array.isArray(v)) referencedIds(v[1], resources, out);
      } else {
        referencedIds(v, resources, out);
      }
    }
  }
  return out;
}

const dependsOn = (resource) => [].concat(resource.DependsOn || []);

/** PascalCase, letters and digits only: `flock-analytics` → `FlockAnalytics`. */
function stackBaseName(group) {
  const name = group
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`stacks-map: cannot name a stack after group "${group}"`);
  return name;
}

/** logicalId → group, for every resource that moves; computed once per template. */
function buildIndex(resources) {
  const groupOf = new Map();
  const fnGroup = new Map();
  const add = (map, key, group) => {
    if (!map.has(key)) map.set(key, new Set());
    map.get(key).add(group);
  };

  for (const [id, r] of Object.entries(resources)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const handler = String(r.Properties?.Handler || '');
    const m = HANDLER_GROUP.exec(handler);
    if (!m) throw new Error(`stacks-map: ${id} has handler "${handler}", not functions/<group>/…: every function belongs to a route group`);
    fnGroup.set(id, m[1]);
    groupOf.set(id, m[1]);
  }
  const groupsReferencedBy = (r) => new Set([...referencedIds(r.Properties, resources)].filter((id) => fnGroup.has(id)).map((id) => fnGroup.get(id)));

  // Resources attached to one function: referencing it (permissions, rules, versions) or being
  // waited on by it (its log group).
  const attached = new Map();
  for (const [id, r] of Object.entries(resources)) {
    if (!PER_FUNCTION_TYPES.has(r.Type)) continue;
    for (const g of groupsReferencedBy(r)) add(attached, id, g);
  }
  for (const [fnId, group] of fnGroup) {
    for (const dep of dependsOn(resources[fnId])) if (resources[dep] && PER_FUNCTION_TYPES.has(resources[dep].Type)) add(attached, dep, group);
  }
  for (const [id, groups] of attached) if (groups.size === 1) groupOf.set(id, [...groups][0]);

  // API Gateway: a method goes with the function it invokes; a path part goes to a group's stack
  // only when no other group's method sits on or under it.
  const pathGroups = new Map();
  const methods = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::ApiGateway::Method');
  const chain = (resourceRef) => {
    const ids = [];
    let ref = resourceRef;
    while (ref && typeof ref === 'object' && typeof ref.Ref === 'string' && resources[ref.Ref] && resources[ref.Ref].Type === 'AWS::ApiGateway::Resource') {
      ids.push(ref.Ref);
      ref = resources[ref.Ref].Properties.ParentId;
    }
    return ids;
  };
  for (const [id, r] of methods) {
    const groups = groupsReferencedBy(r);
    if (groups.size === 1) groupOf.set(id, [...groups][0]);
    for (const part of chain(r.Properties.ResourceId)) for (const g of groups) add(pathGroups, part, g);
  }
  for (const [id, groups] of pathGroups) if (groups.size === 1) groupOf.set(id, [...groups][0]);
  // Methods without a function (CORS OPTIONS mocks) follow their path part.
  for (const [id, r] of methods) {
    if (groupOf.has(id)) continue;
    const part = chain(r.Properties.ResourceId)[0];
    if (part && groupOf.has(part)) groupOf.set(id, groupOf.get(part));
  }
  return groupOf;
}

const indexes = new WeakMap();

/**
 * Called by the plugin as `strategy.customStackMapping(resource, logicalId)`, `this` being its
 * custom strategy (this.plugin = the plugin instance, which holds the untouched resources).
 */
module.exports = function stacksMap(_resource, logicalId) {
  const resources = this && this.plugin && this.plugin.resourcesById;
  if (!resources) throw new Error('stacks-map: expected to be called by serverless-plugin-split-stacks (this.plugin.resourcesById)');
  if (!indexes.has(resources)) indexes.set(resources, buildIndex(resources));
  const group = indexes.get(resources).get(logicalId);
  return group ? { destination: stackBaseName(group) } : false;
};

module.exports.buildIndex = buildIndex;
module.exports.stackBaseName = stackBaseName;
