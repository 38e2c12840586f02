// Request body of POST /experimentation/experiments: spec §2.4, §4.2, §8, plus the tenant's
// own choices where the spec says "not shown" (documented in reference/README.md).
import type { ValidatorTable } from '../types.ts';
import type { FormKinds } from '../body.ts';
import {
  arrayField,
  booleanField,
  enumField,
  integerField,
  objectType,
  stringField,
  type LimitsRef,
} from './engine.ts';

// §2.4 name/description pattern; the spec writes it JSON-escaped (`\\x00`, `\\S`).
const TEXT_PATTERN = /^(?!.*\x00)\S(.*\S)?$/u;
const TEXT_PATTERN_TEXT = '^(?!.*\\x00)\\S(.*\\S)?$';
const ALLOCATION_STRATEGIES = ['percentage', 'segment'] as const; // §2.4

export const EXPERIMENT_FORM_KINDS: FormKinds = {
  name: 'string',
  feature_flag_id: 'string',
  authentication_flow: 'string',
  description: 'string',
  allocation_strategy: 'string',
  assignment_config: 'json',
  allocations: 'json',
};

export function experimentValidators(lim: LimitsRef): ValidatorTable {
  const t: ValidatorTable = {};

  // §4.2 request members. Tenant choice: no other fields; name, feature_flag_id and
  // allocations required (allocation_strategy defaults to "percentage").
  objectType(t, 'exp.body', {
    fields: {
      name: 'exp.name',
      feature_flag_id: 'exp.feature_flag_id',
      authentication_flow: 'exp.authentication_flow',
      assignment_config: 'exp.assignment_config',
      allocations: 'exp.allocations',
      description: 'exp.description',
      allocation_strategy: 'exp.allocation_strategy',
    },
    required: ['name', 'feature_flag_id', 'allocations'],
  });

  // §2.4/§8 name 3..255, description 3..1024, both with the same pattern
  t['exp.name'] = stringField({
    min: () => lim().experimentNameMin,
    max: () => lim().experimentNameMax,
    pattern: TEXT_PATTERN,
    patternText: TEXT_PATTERN_TEXT,
  });
  t['exp.description'] = stringField({
    min: () => lim().experimentDescriptionMin,
    max: () => lim().experimentDescriptionMax,
    pattern: TEXT_PATTERN,
    patternText: TEXT_PATTERN_TEXT,
  });
  // §2.4 feature_flag_id pattern
  t['exp.feature_flag_id'] = stringField({
    pattern: /^flg_[A-HJ-NP-Za-km-z1-9]+$/u,
    patternText: '^flg_[A-HJ-NP-Za-km-z1-9]+$',
  });
  // §2.4 authentication_flow: a string (values beyond the type not shown; tenant: 1..255)
  t['exp.authentication_flow'] = stringField({ min: () => 1, max: () => lim().authenticationFlowMax });
  // §2.4 assignment_config: object with member `subject` (string). Tenant: subject required, no other members.
  objectType(t, 'exp.assignment_config', {
    fields: { subject: 'exp.assignment_config.subject' },
    required: ['subject'],
  });
  t['exp.assignment_config.subject'] = stringField({ min: () => 1, max: () => lim().assignmentSubjectMax });
  // §2.4 allocation strategy enum
  t['exp.allocation_strategy'] = enumField(ALLOCATION_STRATEGIES);

  // §2.4/§8 allocations: at least 1 (tenant: at most 100)
  t['exp.allocations'] = arrayField(
    'exp.allocation',
    () => lim().allocationsMin,
    () => lim().allocationsMax,
  );
  // §2.4 Allocation fields and types; tenant: variation_id required, no other fields
  objectType(t, 'exp.allocation', {
    fields: {
      variation_id: 'exp.allocation.variation_id',
      segment_id: 'exp.allocation.segment_id',
      weight: 'exp.allocation.weight',
      priority: 'exp.allocation.priority',
      is_control: 'exp.allocation.is_control',
      is_fallback: 'exp.allocation.is_fallback',
    },
    required: ['variation_id'],
  });
  t['exp.allocation.variation_id'] = stringField({ min: () => 1, max: () => lim().variationIdMax });
  t['exp.allocation.segment_id'] = stringField({ min: () => 1, max: () => lim().segmentIdMax });
  t['exp.allocation.weight'] = integerField(
    () => lim().allocationWeightMin,
    () => lim().allocationWeightMax,
  );
  t['exp.allocation.priority'] = integerField(
    () => lim().allocationPriorityMin,
    () => lim().allocationPriorityMax,
  );
  t['exp.allocation.is_control'] = booleanField;
  t['exp.allocation.is_fallback'] = booleanField;
  return t;
}
