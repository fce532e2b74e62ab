'use strict';
/**
 * The osls `iot` event compiles one AWS::IoT::TopicRule with a Lambda action and NO error action: when
 * IoT Core cannot invoke the function (throttled, function missing, permission gone), the message is
 * dropped silently. This adds to every compiled topic rule
 *
 *   ErrorAction: { Sqs: { QueueUrl: Ref IotDeadLetterQueue, RoleArn: GetAtt IotRuleErrorActionRole.Arn, UseBase64: false } }
 *
 * so those messages land in the same dead-letter queue as the ones the function failed on after
 * Lambda's async retries (`destinations.onFailure` in functions/iot/routes.yml). Both resources are
 * declared under `resources:` in serverless.yml; they are merged into the template after this hook,
 * so this checks the declarations instead of the compiled template.
 *
 * Runs after the events are compiled (`after:package:compileEvents`), before serverless-plugin-split-stacks
 * moves the rule into the IoT group's nested stack (the Ref and GetAtt become parameters of that stack).
 */
const QUEUE = 'IotDeadLetterQueue';
const ROLE = 'IotRuleErrorActionRole';

class IotRuleErrorAction {
  constructor(serverless, _options, logging) {
    this.serverless = serverless;
    this.log = logging?.log;
    this.hooks = { 'after:package:compileEvents': () => this.addErrorActions() };
  }

  addErrorActions() {
    const compiled = this.serverless.service.provider.compiledCloudFormationTemplate.Resources;
    const rules = Object.entries(compiled).filter(([, r]) => r.Type === 'AWS::IoT::TopicRule');
    if (rules.length === 0) return;
    const declared = this.serverless.service.resources?.Resources || {};
    for (const [id, type] of [
      [QUEUE, 'AWS::SQS::Queue'],
      [ROLE, 'AWS::IAM::Role'],
    ]) {
      if (!declared[id] || declared[id].Type !== type) {
        throw new this.serverless.classes.Error(
          `iot-rule: ${rules.length} IoT topic rule(s) need ${id} (${type}) under resources.Resources in serverless.yml for their error action`,
        );
      }
    }
    for (const [id, rule] of rules) {
      const payload = rule.Properties?.TopicRulePayload;
      if (!payload) throw new this.serverless.classes.Error(`iot-rule: ${id} has no TopicRulePayload`);
      if (payload.ErrorAction) throw new this.serverless.classes.Error(`iot-rule: ${id} already has an error action`);
      payload.ErrorAction = {
        Sqs: {
          QueueUrl: { Ref: QUEUE },
          RoleArn: { 'Fn::GetAtt': [ROLE, 'Arn'] },
          UseBase64: false,
        },
      };
    }
    if (this.log) this.log.verbose(`iot-rule: SQS error action (${QUEUE}) on ${rules.length} IoT topic rule(s)`);
  }
}

module.exports = IotRuleErrorAction;
