// zod's English messages ("Invalid input: expected number, received string") for the issues the
// lab's schemas raise, without the locale's table of string formats every page would otherwise load.
import type * as z from 'zod/mini';

/** A value's kind as the messages name it: null, array, NaN and Infinity apart from typeof. */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : String(v);
  return typeof v;
}

const show = (v: unknown): string =>
  typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? `${v}n` : String(v);

/** Sizes counted in units rather than compared as values. */
const UNITS: Record<string, string> = { string: 'characters', array: 'items', set: 'items', map: 'entries' };

export function schemaMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${issue.expected === 'nan' ? 'NaN' : issue.expected}, received ${kindOf(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Invalid input: expected ${show(issue.values[0])}`
        : `Invalid option: expected one of ${issue.values.map(show).join('|')}`;
    case 'too_big':
    case 'too_small': {
      const big = issue.code === 'too_big';
      const bound = big ? issue.maximum : issue.minimum;
      const adj = issue.exact ? 'exactly ' : issue.inclusive ? (big ? '<=' : '>=') : big ? '<' : '>';
      const unit = UNITS[issue.origin ?? ''];
      const what = issue.origin ?? 'value';
      return `Too ${big ? 'big' : 'small'}: expected ${what} to ${unit ? `have ${adj}${bound} ${unit}` : `be ${adj}${bound}`}`;
    }
    case 'not_multiple_of':
      return `Invalid number: must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map(show).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex'
        ? `Invalid string: must match pattern ${issue.pattern}`
        : `Invalid ${issue.format}`;
    case 'invalid_key':
      return `Invalid key in ${issue.origin}`;
    case 'invalid_union': {
      // A discriminated union names the values its key may take.
      const options = (issue as { options?: unknown[] }).options;
      if (Array.isArray(options) && options.length)
        return `Invalid discriminator value. Expected ${options.map((o) => `'${String(o)}'`).join(' | ')}`;
      return issue.inclusive === false ? 'Invalid input: more than one option matched' : 'Invalid input';
    }
    case 'invalid_element':
      return `Invalid value in ${issue.origin}`;
    default:
      return 'Invalid input';
  }
}
