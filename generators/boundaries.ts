// The valid side of every §8 limit (and the valid-side rules of §2.2/§2.3: empty
// body, null where allowed, open members), as data labelled with the clause; the
// limits themselves are read from the schemas (generators/limits.ts).
// `expect` says what a conformant target must do: accept, reject — or, where
// the spec leaves acceptance open, `observe` (the clause is then an observe one).
import { fieldsOf, schemaOf } from '../schemas/index.ts';
import type { Json, UpdateBody, UpdateOptions } from './resource-server.ts';
import type { ExperimentOptions } from './experiment.ts';
import { experimentPayload, experimentWithNameLength, experimentWithDescriptionLength } from './experiment.ts';
import { exactText, exactAstralText } from './text.ts';
import { NESTED_FALLBACKS, type Target } from './violations.ts';
import { describeEdge, edgeValue, limitsOf, placeAt } from './limits.ts';

export interface BoundaryCase {
  /** `<target>/<field>.<value>`, stable across runs. */
  id: string;
  clause: string;
  target: Target;
  side: 'valid' | 'invalid';
  /** accept → 201/2xx; reject → 400/4xx; observe → record the answer (clause is an observe clause). */
  expect: 'accept' | 'reject' | 'observe';
  description: string;
  body: Json;
  /**
   * The one value the case sets, where it sets one (valid update cases): cases whose paths
   * do not overlap are sent together in one body (validBundles).
   */
  at?: { path: string[]; value: Json };
}

export interface ValidBundle {
  cases: BoundaryCase[];
  body: UpdateBody;
}

/**
 * The valid side of every limit of the update body (from the schema, generators/limits.ts),
 * from a base of `{}`, and the valid-side rules a keyword does not give. One past each limit is
 * a violation case (violations.ts), sent once. With `earlyAccess: false` the
 * authorization_policy cases are left out.
 */
export function updateBoundaryCases(opts: UpdateOptions = {}): BoundaryCase[] {
  const out: BoundaryCase[] = [];
  const add = adder(out, 'update');

  const at = (id: string, clause: string, description: string, path: string[], value: Json): void => {
    add(id, clause, 'valid', description, placeAt({}, path, value, NESTED_FALLBACKS));
    (out.at(-1) as BoundaryCase).at = { path, value };
  };
  // The empty body {} (rs.update.optional) is sent by specs/resource-server/accepts-valid-updates.ts: not again here.
  for (const l of limitsOf('ResourceServerUpdate')) {
    // §2.3 states pem is a PEM key, which no keyword says: its lower edge is the observed case below.
    if (l.path.at(-1) === 'pem' && l.keyword === 'minLength') continue;
    const value = edgeValue(l, 'valid');
    const n = typeof value === 'string' ? [...value].length : value;
    at(`${l.path.filter((p) => p !== '*').join('.')}.${n}`, l.clause, describeEdge(l, value), l.path, value);
  }
  // The name pattern ^[^<>]+$ needs one character (its empty side is the violation name.empty).
  at('name.1', 'rs.update.name.pattern', 'name of 1 character', ['name'], exactText(1));
  add(
    'name.200-astral',
    'limits.length.unit',
    'valid',
    'name of 200 astral characters (400 UTF-16 units): how the target counts',
    { name: exactAstralText(200) },
    'observe',
  );
  add(
    'token_encryption.encryption_key.pem.1',
    'rs.encryption_key.pem.content',
    'valid',
    'pem of 1 character: within the length range but not a PEM key',
    placeAt({}, ['token_encryption', 'encryption_key', 'pem'], '-', NESTED_FALLBACKS),
    'observe',
  );
  // No minItems on scopes: an empty list is a valid value of the array type.
  at('scopes.empty', 'rs.update.scopes.type', 'scopes as an empty array', ['scopes'], []);
  // null where the schema allows it, with the property's own clause.
  const props = (schemaOf('ResourceServerUpdate').properties ?? {}) as Record<string, { 'x-clause'?: unknown }>;
  for (const f of fieldsOf('ResourceServerUpdate').filter((x) => x.types.includes('null'))) {
    const clause = props[f.name]?.['x-clause'];
    if (typeof clause !== 'string') throw new Error(`updateBoundaryCases: ${f.name} has no single x-clause`);
    at(`${f.name}.null`, clause, `${f.name} null (allowed)`, [f.name], null);
  }
  // §2.3 leaves the members of user and client open (additionalProperties absent there).
  at(
    'subject_type_authorization.extra-members',
    'rs.subject_type_authorization.members.open',
    'extra members inside user and client (allowed)',
    ['subject_type_authorization'],
    { user: { policy: 'allow_all', x_note: 'extra' }, client: { policy: 'deny_all', x_tier: 2 } },
  );
  return opts.earlyAccess === false ? out.filter((c) => !c.id.startsWith('update/authorization_policy.')) : out;
}

/**
 * The valid side of the experiment payload's length limits (from the schema), around a valid
 * payload; one past each is a violation case (violations.ts).
 */
export function experimentBoundaryCases(opts: ExperimentOptions): BoundaryCase[] {
  const out: BoundaryCase[] = [];
  const add = adder(out, 'experiment');
  const build = { name: experimentWithNameLength, description: experimentWithDescriptionLength } as const;
  for (const l of limitsOf('ExperimentCreate')) {
    const field = l.path[0];
    if (l.path.length !== 1 || (field !== 'name' && field !== 'description')) continue;
    const n = l.bound;
    // The salt varies the text between the edges of one field (two experiments, two names).
    const body = build[field](opts, n, l.keyword === 'maxLength' ? 1 : 0);
    const note = field === 'name' && n < 20 ? ' (run tag moved to the description)' : '';
    add(`${field}.${n}`, l.clause, 'valid', `${field} of ${n} characters${note}`, body);
    (out.at(-1) as BoundaryCase).at = { path: [field], value: body[field] as Json };
  }
  const base = experimentPayload(opts);
  const allocations = base['allocations'] as Json[];
  // §2.4 states min length 1 for allocations; whether one allocation of weight 100 is enough is not shown.
  add(
    'allocations.1',
    'exp.create.allocation.rules',
    'valid',
    'one allocation of weight 100: meets min length 1, other allocation rules are not shown',
    {
      ...base,
      allocations: [{ ...(allocations[0] as UpdateBody), weight: 100 }],
    },
    'observe',
  );
  return out;
}

/**
 * The accepted length edges of the experiment payload two to a body: the shortest name with
 * the longest description and the other way round, so that one of the two carries the run tag.
 */
export function experimentEdgeBundles(opts: ExperimentOptions): ValidBundle[] {
  const edges = experimentBoundaryCases(opts).filter((c) => c.expect === 'accept' && c.at);
  const length = (c: BoundaryCase): number => [...String(c.at!.value)].length;
  const of = (field: string): BoundaryCase[] =>
    edges.filter((c) => c.at!.path[0] === field).sort((a, b) => length(a) - length(b));
  const names = of('name');
  const descriptions = of('description').reverse();
  const tag = opts.runTag;
  return Array.from({ length: Math.max(names.length, descriptions.length) }, (_, i) => {
    const cases = [names[i], descriptions[i]].filter((c): c is BoundaryCase => c !== undefined);
    // The edges' own payloads, not a fresh one: their names are their own (a serial each).
    const body: UpdateBody = { ...((cases[0]?.body as UpdateBody | undefined) ?? experimentPayload(opts)) };
    for (const c of cases) body[c.at!.path[0]!] = c.at!.value;
    if (!`${body.name} ${body.description}`.includes(tag))
      throw new Error(`experimentEdgeBundles: ${cases.map((c) => c.id).join(' + ')} leaves no room for the run tag`);
    return { cases, body };
  });
}

/** Every boundary case; experiment cases only when experiment options are given. */
export function boundaryCases(opts: UpdateOptions & { experiment?: ExperimentOptions } = {}): BoundaryCase[] {
  return [...updateBoundaryCases(opts), ...(opts.experiment ? experimentBoundaryCases(opts.experiment) : [])];
}

/**
 * The accepted cases packed into as few valid bodies as possible: first fit, two cases sharing
 * a body when neither path lies inside the other (array items are separate: each case appends
 * its own). Invalid values never share a body (each refusal must name its cause); cases
 * without one value of their own (`at`) go alone.
 */
export function validBundles(cases: readonly BoundaryCase[]): ValidBundle[] {
  const bundles: Array<{ cases: BoundaryCase[]; paths: string[][] }> = [];
  for (const c of cases) {
    if (c.expect !== 'accept') throw new Error(`validBundles: ${c.id} is not an accepted case`);
    const free = c.at
      ? bundles.find((b) => b.paths.length > 0 && b.paths.every((p) => !overlaps(p, c.at!.path)))
      : undefined;
    if (free) {
      free.cases.push(c);
      free.paths.push(c.at!.path);
    } else bundles.push({ cases: [c], paths: c.at ? [c.at.path] : [] });
  }
  return bundles.map((b) => ({
    cases: b.cases,
    body: b.cases.reduce<UpdateBody>(
      (body, c) =>
        c.at ? (placeAt(body, c.at.path, c.at.value, NESTED_FALLBACKS) as UpdateBody) : (c.body as UpdateBody),
      {},
    ),
  }));
}

// Helpers

/** One path is the other or lies inside it, short of an array item (`*`: each case adds its own item). */
function overlaps(a: string[], b: string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] === '*' || b[i] === '*') return false;
    if (a[i] !== b[i]) return false;
  }
  return true;
}

/** Appends cases for one target; `expect` defaults to what the side implies. */
function adder(out: BoundaryCase[], target: Target) {
  return (
    id: string,
    clause: string,
    side: BoundaryCase['side'],
    description: string,
    body: Json,
    expect?: BoundaryCase['expect'],
  ): void => {
    out.push({
      id: `${target}/${id}`,
      clause,
      target,
      side,
      expect: expect ?? (side === 'valid' ? 'accept' : 'reject'),
      description,
      body,
    });
  };
}
