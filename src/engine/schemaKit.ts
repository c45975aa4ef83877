// The lab's own validator, with zod/mini's API for the calls its schemas make: the page and every
// embed use it, as zod would be the largest part of their engine. It gives zod's issues, paths,
// English messages (zodErrors.ts) and output, key order included. Each schema is a function of the
// kit (experimentSchemas(z)); Node also builds them with zod for the JSON Schema
// (scripts/gen-schema.ts), and tests/unit/schemaKit.test.ts compares both on the same inputs.
import type * as zm from 'zod/mini';
import { schemaMessage } from './zodErrors';

/** The calls the lab's schemas make: what the kit gives, typed as zod/mini types them. */
export type SchemaKit = Pick<typeof zm, keyof typeof kit>;

interface Issue {
  code: string;
  path?: PropertyKey[];
  /** As zod's: false or absent stops the checks after it, true lets them run. */
  continue?: boolean;
  /** A check's own message (regex's second argument). */
  custom?: string;
  input?: unknown;
  [key: string]: unknown;
}
interface Payload {
  value: unknown;
  issues: Issue[];
}
interface Check {
  /** Size checks run only on a value with a length, even after another issue. */
  when?: (p: Payload) => boolean;
  /** A size check's upper bound: an array longer than it is not parsed item by item. */
  max?: number;
  size?: true;
  run(p: Payload): void;
}
type Rung = 'optional' | 'defaulted' | undefined;

interface Schema {
  optin: Rung;
  optout: Rung;
  /** The values a literal or an enum takes (a discriminated union's options are found by them). */
  values?: Set<unknown>;
  shape?: Record<string, Schema>;
  run(p: Payload): Payload;
  check(...checks: Check[]): Schema;
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: Issue[] } };
  parse(value: unknown): unknown;
}

const aborted = (p: Payload, from = 0) => p.issues.slice(from).some((i) => i.continue !== true);
const stopped = (p: Payload) => p.issues.some((i) => i.continue === false);

function runChecks(p: Payload, checks: readonly Check[]): Payload {
  let isAborted = aborted(p);
  for (const ch of checks) {
    if (ch.when) {
      if (stopped(p) || !ch.when(p)) continue;
    } else if (isAborted) continue;
    const n = p.issues.length;
    ch.run(p);
    if (p.issues.length !== n && !isAborted) isAborted = aborted(p, n);
  }
  return p;
}

const fail = (p: Payload, issue: Issue): Payload => {
  p.issues.push(issue);
  return p;
};
const prefix = (key: PropertyKey, issues: Issue[]): Issue[] => {
  for (const i of issues) (i.path ??= []).unshift(key);
  return issues;
};
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (!isObject(v)) return false;
  const ctor = (v as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf');
}
const clone = <T>(v: T): T => (Array.isArray(v) ? [...v] : isPlainObject(v) ? { ...v } : v) as T;

function finalize(issue: Issue): Issue {
  const out: Issue = { code: issue.code };
  for (const k of Object.keys(issue))
    if (k !== 'continue' && k !== 'input' && k !== 'custom' && k !== '__proto__') out[k] = issue[k];
  out.path ??= [];
  out.message = issue.custom ?? schemaMessage(issue as unknown as zm.core.$ZodRawIssue);
  return out;
}

function schema(
  parse: (p: Payload, checks: readonly Check[]) => Payload,
  props: Partial<Pick<Schema, 'optin' | 'optout' | 'values' | 'shape'>> = {},
  checks: readonly Check[] = [],
): Schema {
  const s: Schema = {
    optin: undefined,
    optout: undefined,
    ...props,
    run: (p) => runChecks(parse(p, checks), checks),
    check: (...more) => schema(parse, props, [...checks, ...more]),
    safeParse(value) {
      const r = s.run({ value, issues: [] });
      return r.issues.length
        ? { success: false, error: { issues: r.issues.map(finalize) } }
        : { success: true, data: r.value };
    },
    parse(value) {
      const r = s.safeParse(value);
      if (!r.success)
        throw new Error(r.error.issues.map((i) => `${i.path?.join('.')}: ${i.message}`).join('; '));
      return r.data;
    },
  };
  return s;
}

const typed = (expected: string, ok: (v: unknown) => boolean) =>
  schema((p) => (ok(p.value) ? p : fail(p, { code: 'invalid_type', expected, input: p.value })));

const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

/** z.int(): a number, then a safe integer (its own first check, as zod's number format). */
const INT: Check = {
  run(p) {
    const v = p.value as number;
    if (!Number.isInteger(v)) {
      p.issues.push({ code: 'invalid_type', expected: 'int', format: 'safeint', continue: false, input: v });
    } else if (!Number.isSafeInteger(v)) {
      const big = v > 0;
      const limit = big ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
      p.issues.push({
        code: big ? 'too_big' : 'too_small',
        [big ? 'maximum' : 'minimum']: limit,
        origin: 'int',
        inclusive: true,
        continue: true,
      });
    }
  },
};

const lengthOrigin = (v: unknown) =>
  Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : 'unknown';
/** Length in code points for a string (as zod counts it), items for an array. */
const lengthOf = (v: { length: number }) => (typeof v === 'string' ? [...v].length : v.length);
const hasLength = (p: Payload) =>
  p.value !== null && p.value !== undefined && (p.value as { length?: unknown }).length !== undefined;

/** A bound on a number or a length: too_small under a minimum, too_big over a maximum, as zod says. */
function bound(
  limit: number,
  isMax: boolean,
  measure: (v: unknown) => number,
  origin: (v: unknown) => string,
): Check['run'] {
  return (p) => {
    const n = measure(p.value);
    if (isMax ? n <= limit : n >= limit) return;
    p.issues.push({
      code: isMax ? 'too_big' : 'too_small',
      origin: origin(p.value),
      [isMax ? 'maximum' : 'minimum']: limit,
      inclusive: true,
      input: p.value,
      continue: true,
    });
  };
}
const numberBound = (limit: number, isMax: boolean): Check => ({
  run: bound(limit, isMax, Number, () => 'number'),
});
const lengthBound = (limit: number, isMax: boolean): Check => ({
  when: hasLength,
  size: true,
  ...(isMax ? { max: limit } : {}),
  run: bound(limit, isMax, (v) => lengthOf(v as { length: number }), lengthOrigin),
});

/** A literal's or an enum's schema: one of `list`. */
function oneOf(list: readonly unknown[]): Schema {
  const values = new Set(list);
  return schema(
    (p) => (values.has(p.value) ? p : fail(p, { code: 'invalid_value', values: [...list], input: p.value })),
    { values },
  );
}

function handleProperty(
  r: Payload,
  final: Payload,
  out: Record<string, unknown>,
  key: string,
  input: Record<string, unknown>,
  field: Schema,
): void {
  const present = key in input;
  const { optin, optout } = field;
  if (!present && optout === 'optional' && optin === 'optional') return;
  if (r.issues.length) {
    if (optin !== undefined && optout === 'optional' && !present) return;
    final.issues.push(...prefix(key, r.issues));
  }
  if (!present && optin === undefined) {
    if (!r.issues.length)
      final.issues.push({ code: 'invalid_type', expected: 'nonoptional', input: undefined, path: [key] });
    return;
  }
  if (r.value === undefined) {
    if (present || (optin === 'defaulted' && optout !== 'optional')) out[key] = undefined;
  } else out[key] = r.value;
}

function record(keyType: Schema, valueType: Schema, partial: boolean): Schema {
  return schema((p) => {
    const input = p.value;
    if (!isPlainObject(input)) return fail(p, { code: 'invalid_type', expected: 'record', input });
    const out: Record<PropertyKey, unknown> = {};
    const unrecognized: PropertyKey[] = [];
    for (const key of Reflect.ownKeys(input)) {
      if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(input, key)) continue;
      const k = keyType.run({ value: key, issues: [] });
      if (k.issues.length) {
        if (partial) unrecognized.push(key);
        else
          p.issues.push({
            code: 'invalid_key',
            origin: 'record',
            issues: k.issues.map(finalize),
            input: key,
            path: [key],
          });
        continue;
      }
      const r = valueType.run({ value: (input as Record<PropertyKey, unknown>)[key], issues: [] });
      if (r.issues.length) p.issues.push(...prefix(key, r.issues));
      out[key] = r.value;
    }
    if (unrecognized.length)
      p.issues.push({ code: 'unrecognized_keys', input, keys: unrecognized, continue: true });
    p.value = out;
    return p;
  });
}

const kit = {
  string: () => typed('string', (v) => typeof v === 'string'),
  number: () => typed('number', isNumber),
  int: () => typed('number', isNumber).check(INT),
  boolean: () => typed('boolean', (v) => typeof v === 'boolean'),
  unknown: () => schema((p) => p),
  literal: (value: unknown) => oneOf([value]),
  enum: oneOf,
  optional: (inner: Schema) =>
    schema(
      (p) => {
        if (p.value !== undefined) return inner.run(p);
        if (inner.optin !== 'defaulted') return p;
        const r = inner.run({ value: undefined, issues: [] });
        p.value = r.issues.length ? undefined : r.value;
        return p;
      },
      {
        optin: inner.optin === 'defaulted' ? 'defaulted' : 'optional',
        optout: 'optional',
        values: inner.values && new Set([...inner.values, undefined]),
      },
    ),
  nullable: (inner: Schema) =>
    schema((p) => (p.value === null ? p : inner.run(p)), {
      optin: inner.optin,
      optout: inner.optout,
      values: inner.values && new Set([...inner.values, null]),
    }),
  _default: (inner: Schema, value: unknown) =>
    schema(
      (p) => {
        if (p.value === undefined) {
          p.value = clone(value);
          return p;
        }
        const r = inner.run(p);
        if (r.value === undefined) r.value = clone(value);
        return r;
      },
      { optin: 'defaulted', values: inner.values },
    ),
  prefault: (inner: Schema, value: unknown) =>
    schema(
      (p) => {
        if (p.value === undefined) p.value = clone(value);
        return inner.run(p);
      },
      { optin: 'defaulted', values: inner.values },
    ),
  strictObject: (shape: Record<string, Schema>) => {
    const keys = Object.keys(shape);
    const known = new Set(keys);
    return schema(
      (p) => {
        const input = p.value;
        if (!isObject(input)) return fail(p, { code: 'invalid_type', expected: 'object', input });
        const out: Record<string, unknown> = {};
        p.value = out;
        for (const key of keys) {
          if (key === '__proto__') continue;
          const field = shape[key];
          handleProperty(field.run({ value: input[key], issues: [] }), p, out, key, input, field);
        }
        const unrecognized: string[] = [];
        for (const key in input) if (!known.has(key)) unrecognized.push(key);
        if (unrecognized.length)
          p.issues.push({ code: 'unrecognized_keys', keys: unrecognized, input, continue: true });
        return p;
      },
      { shape },
    );
  },
  array: (element: Schema) =>
    schema((p, checks) => {
      const input = p.value;
      if (!Array.isArray(input)) return fail(p, { code: 'invalid_type', expected: 'array', input });
      // As zod does: an array past a leading size check's bound fails on its length alone.
      for (const ch of checks) {
        if (!ch.size) break;
        if (ch.max !== undefined && input.length > ch.max) {
          const start = p.issues.length;
          ch.run(p);
          p.issues[start].continue = false;
          return p;
        }
      }
      const out: unknown[] = new Array(input.length);
      input.forEach((item, i) => {
        const r = element.run({ value: item, issues: [] });
        if (r.issues.length) p.issues.push(...prefix(i, r.issues));
        out[i] = r.value;
      });
      p.value = out;
      return p;
    }),
  record: (keyType: Schema, valueType: Schema) => record(keyType, valueType, false),
  partialRecord: (keyType: Schema, valueType: Schema) => record(keyType, valueType, true),
  union: (options: Schema[]) =>
    schema(
      (p) => {
        if (options.length === 1) return options[0].run(p);
        const results: Payload[] = [];
        for (const option of options) {
          const r = option.run({ value: p.value, issues: [] });
          if (!r.issues.length) return r;
          results.push(r);
        }
        const standing = results.filter((r) => !aborted(r));
        if (standing.length === 1) {
          p.value = standing[0].value;
          return standing[0];
        }
        return fail(p, { code: 'invalid_union', input: p.value, errors: [] });
      },
      {
        optin: options.some((o) => o.optin === 'defaulted')
          ? 'defaulted'
          : options.some((o) => o.optin !== undefined)
            ? 'optional'
            : undefined,
        optout: options.some((o) => o.optout === 'optional') ? 'optional' : undefined,
      },
    ),
  discriminatedUnion: (discriminator: string, options: Schema[]) => {
    const byValue = new Map<unknown, Schema>();
    for (const o of options) for (const v of o.shape?.[discriminator]?.values ?? []) byValue.set(v, o);
    return schema((p) => {
      const input = p.value;
      if (!isObject(input)) return fail(p, { code: 'invalid_type', expected: 'object', input });
      const option = byValue.get(input[discriminator]);
      if (option) return option.run(p);
      return fail(p, {
        code: 'invalid_union',
        errors: [],
        note: 'No matching discriminator',
        discriminator,
        options: [...byValue.keys()],
        input,
        path: [discriminator],
      });
    });
  },
  minimum: (min: number) => numberBound(min, false),
  maximum: (max: number) => numberBound(max, true),
  minLength: (min: number) => lengthBound(min, false),
  maxLength: (max: number) => lengthBound(max, true),
  regex: (pattern: RegExp, message?: string): Check => ({
    run(p) {
      pattern.lastIndex = 0;
      if (pattern.test(p.value as string)) return;
      p.issues.push({
        code: 'invalid_format',
        origin: 'string',
        format: 'regex',
        pattern: pattern.toString(),
        input: p.value,
        continue: true,
        ...(message === undefined ? {} : { custom: message }),
      });
    },
  }),
};

export const z = kit as unknown as SchemaKit;
