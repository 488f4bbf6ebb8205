/**
 * A command typed whole into one field (a database console's `expire session:abc 3600`, a
 * search box's `keys order:*`) whose arguments the intent names ("make session:abc expire in 3600
 * seconds"): each named argument becomes its own input and the command's other words stay as
 * typed, so a caller gives the key and the seconds, not a command line. Pure: tool in, tool out.
 */
import type { RequestTemplate, SlotSchema, ToolSpec } from '../../shared/toolSpec'

/** Longest field value read as a command line. */
const MAX_COMMAND_LENGTH = 200

/** A word shaped like a value (a key `session:abc`, a pattern `order:*`, a number, a path). */
const VALUE_SHAPED = /[\d:*._@/-]/

/** A command's first word: its verb (`expire`, `keys`, `GET`), which stays as typed. */
const VERB = /^[A-Za-z][\w.-]*$/

/**
 * The tool with each string input whose default is a command line (a verb, then words) split:
 * the words after the verb that the intent spells (case aside) and that are shaped like values
 * become inputs `<input>_arg<n>` (n: the word's place in the command, the verb being 1) with the
 * word as default, required when the command was; the command's template keeps the other words.
 * A value the intent spells whole (a quoted text) stays one input. Unchanged when no input holds
 * such a command.
 */
export function commandArguments(tool: ToolSpec, intent: string): ToolSpec {
  const said = intentWordSet(intent)
  const target = tool.steps.at(-1)
  if (!target) return tool
  let request = target.request
  const properties: Record<string, SlotSchema> = {}
  const required = new Set(tool.inputs.required ?? [])
  let changed = false
  let next = nextSlotNumber(tool.inputs.properties)
  const spelled = intent.toLowerCase().replace(/\s+/g, ' ')
  for (const [name, input] of Object.entries(tool.inputs.properties)) {
    // A value the intent gives whole (a quoted text, a title) is one input, whatever its words.
    const whole = typeof input.default === 'string' && spelled.includes(input.default.toLowerCase())
    const words = whole ? null : commandWords(input)
    const args = words
      ? words
          .map((word, i) => ({ word, i }))
          .filter(({ word, i }) => i > 0 && VALUE_SHAPED.test(word) && said.has(word.toLowerCase()))
      : []
    if (!words || !args.length || (input['x-in'] !== 'body' && input['x-in'] !== 'query')) {
      properties[name] = input
      continue
    }
    const slots = new Map<number, string>()
    const shown = words.map((w, k) => (args.some((a) => a.i === k) ? '…' : w)).join(' ')
    for (const { word, i } of args) {
      const slot = `p${next++}`
      slots.set(i, slot)
      const argName = uniqueName(`${name}_arg${i + 1}`, properties, tool.inputs.properties)
      properties[argName] = {
        'x-slot': slot,
        'x-in': input['x-in'],
        'x-path': input['x-path'],
        type: 'string',
        minLength: 1,
        default: word,
        description: `Word ${i + 1} of the command sent as ${input['x-in']} ${input['x-path']} (recorded ${JSON.stringify(word)}; the command: ${JSON.stringify(shown)})`,
      }
      if (required.has(name)) required.add(argName)
    }
    required.delete(name)
    const parts = words.map((word, i) => (slots.has(i) ? `{{input.${slots.get(i)}}}` : word))
    request = placeCommand(request, `{{input.${input['x-slot']}}}`, parts)
    changed = true
  }
  if (!changed) return tool
  return {
    ...tool,
    inputs: {
      ...tool.inputs,
      properties,
      required: [...required].filter((n) => n in properties),
    },
    steps: [...tool.steps.slice(0, -1), { ...target, request }],
    evidence: {
      ...tool.evidence,
      signals: [
        ...tool.evidence.signals,
        {
          name: 'command_arguments',
          weight: 0,
          detail:
            'a command typed whole into one field: the words the intent names are inputs, the rest stays as typed',
        },
      ],
    },
  }
}

/** The words of an input's default when it reads as a command line (a verb and 1+ words). */
function commandWords(input: SlotSchema): string[] | null {
  return input.type === 'string' ? commandLine(input.default) : null
}

/** A value's words when it reads as a command line: a verb, then one or more words. */
function commandLine(value: unknown): string[] | null {
  if (typeof value !== 'string' || value.length > MAX_COMMAND_LENGTH) return null
  if (/\s{2,}|[\n\t]/.test(value)) return null
  const words = value.trim().split(' ')
  return words.length >= 2 && VERB.test(words[0]!) ? words : null
}

/** The intent's words as written, lower case, quotes and sentence punctuation trimmed. */
function intentWordSet(intent: string): Set<string> {
  return new Set(
    intent
      .split(/\s+/)
      .map((w) => w.replace(/^["'“(]+|["'”),;!?]+$|\.$/g, '').toLowerCase())
      .filter(Boolean),
  )
}

/**
 * True when a request value is a command line the intent spells: its verb is a word of the
 * intent and so is at least one of its value-shaped arguments (`expire session:abc 3600` for
 * "make session:abc expire in 3600 seconds"). Such a value stands for what the person typed in a
 * trace without actions (a HAR), like a value the intent names whole (intentValues.ts).
 */
export function isNamedCommand(value: unknown, intent: string): boolean {
  const words = commandLine(value)
  if (!words || intent.toLowerCase().includes(String(value).toLowerCase())) return false
  const said = intentWordSet(intent)
  return (
    said.has(words[0]!.toLowerCase()) &&
    words.slice(1).some((w) => VALUE_SHAPED.test(w) && said.has(w.toLowerCase()))
  )
}

/**
 * The request with the whole placeholder of a command replaced by its words joined by spaces,
 * some of them placeholders: in a form field or a JSON string as text, in the URL's query
 * percent-encoded around the placeholders.
 */
function placeCommand(
  request: RequestTemplate,
  placeholder: string,
  parts: string[],
): RequestTemplate {
  const text = parts.join(' ')
  const encoded = parts
    .map((p) => (p.startsWith('{{') ? p : encodeURIComponent(p)))
    .join(encodeURIComponent(' '))
  const url = request.url.split(placeholder).join(encoded)
  const body = request.body
  if (body?.kind === 'form')
    return {
      ...request,
      url,
      body: {
        ...body,
        template: Object.fromEntries(
          Object.entries(body.template).map(([k, v]) => [k, v === placeholder ? text : v]),
        ),
      },
    }
  if (body?.kind === 'json' && !body.base)
    return {
      ...request,
      url,
      body: { ...body, template: replaceJson(body.template, placeholder, text) },
    }
  return { ...request, url }
}

function replaceJson(value: unknown, placeholder: string, text: string): unknown {
  if (value === placeholder) return text
  if (Array.isArray(value)) return value.map((v) => replaceJson(v, placeholder, text))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, replaceJson(v, placeholder, text)]),
    )
  return value
}

function nextSlotNumber(properties: Record<string, SlotSchema>): number {
  const used = Object.values(properties).map((p) => Number(/^p(\d+)$/.exec(p['x-slot'])?.[1] ?? -1))
  return Math.max(-1, ...used) + 1
}

function uniqueName(base: string, ...taken: Array<Record<string, unknown>>): string {
  let name = base
  for (let i = 2; taken.some((t) => name in t); i++) name = `${base}_${i}`
  return name
}
