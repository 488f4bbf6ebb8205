import type { ErrorObject } from 'ajv'

/**
 * What people call the fields of the app's methods (`src/shared/appApi.ts`); a field not named
 * here is called by its own name, in quotes.
 */
const FIELD_NAMES: Record<string, string> = {
  intent: 'What the tool should do',
  url: 'The address',
  cdpEndpoint: 'The address of your Chromium',
  har: 'The HAR file',
  uploadId: 'The HAR file',
  passphrase: 'The passphrase',
  username: 'The user name',
  password: 'The password',
  label: 'The name of the key',
  name: 'The name',
  value: 'The value',
  host: 'The site',
  hosts: 'The sites',
  slug: 'The name of the scope',
  chromiumPath: 'The Chromium path',
  totpSeed: 'The one-time code key',
}

/** The field an error is about: its last path segment, or the property a `required` names. */
function fieldOf(error: ErrorObject): string | null {
  if (error.keyword === 'required')
    return String((error.params as { missingProperty?: unknown }).missingProperty ?? '') || null
  if (error.keyword === 'additionalProperties')
    return String((error.params as { additionalProperty?: unknown }).additionalProperty ?? '')
  const last = error.instancePath.split('/').filter(Boolean).at(-1)
  return last ?? null
}

function nameOf(field: string | null): string {
  if (!field) return 'The input'
  return FIELD_NAMES[field] ?? `"${field}"`
}

/** One schema error as a sentence a person can act on, without the validator's wording. */
function sentence(error: ErrorObject): string {
  const field = fieldOf(error)
  const name = nameOf(field)
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return `${name} is missing.`
    case 'minLength':
      return params.limit === 1
        ? `${name} is empty: fill it in.`
        : `${name} is too short: at least ${String(params.limit)} characters.`
    case 'maxLength':
      return `${name} is too long: at most ${String(params.limit)} characters.`
    case 'pattern':
    case 'format':
      return `${name} is not in the expected form.`
    case 'type':
      return `${name} has the wrong kind of value.`
    case 'enum':
      return `${name} must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}.`
    case 'additionalProperties':
      return `${name} is not something this action takes.`
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${name} is out of range.`
    case 'minItems':
      return `${name}: give at least ${String(params.limit)}.`
    case 'maxItems':
      return `${name}: give at most ${String(params.limit)}.`
    default:
      return `${name} is not valid.`
  }
}

/**
 * The app's `invalid_input` message for input that failed a method's schema: one plain sentence
 * per problem (the field named as the page names it, e.g. "What the tool should do is empty"),
 * never the validator's text (`must NOT have fewer than 1 characters`) or the method's name.
 * `oneOf`/`anyOf` summaries are left out when a more precise error is there. Duplicates are said
 * once.
 */
export function describeInputProblem(errors: ErrorObject[] | null | undefined): string {
  const all = errors ?? []
  const precise = all.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf')
  const said = (precise.length ? precise : all).map(sentence)
  return [...new Set(said)].join(' ') || 'The input is not valid.'
}
