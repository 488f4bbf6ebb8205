/**
 * What the answer keys of Privoxy do by hand: name its requests, and read an action file back
 * from the editor's list page (`GET /edit-actions-list?f=<file>`, a "harmless" page that needs no
 * Referer): the file's version `v` (its modification time in seconds, which every write must
 * send and which a write changes), its sections (line number `s`, the actions they apply) and
 * their URL patterns (line number `p`).
 */
import { getText } from '../sessionFetch'
import type { AppInstance, RequestKey } from '../types'
import { USER_ACTION } from './seed'

/** The editor's list page of an action file: where `v` and the section and pattern lines are. */
export const EDITOR_LIST: RequestKey = { method: 'GET', path: '/edit-actions-list' }

/** One URL pattern of a section. */
interface PatternRow {
  /** Its line number, the `p=` of the editor's Edit and Remove links. */
  p: number
  pattern: string
}

/** One section of an action file as the editor lists it. */
export interface Section {
  /** Its line number, the `s=` of the editor's links. */
  s: number
  /** The actions it applies, as text (`+block{Crypto miners.}`, `-block`, ...). */
  actions: string[]
  patterns: PatternRow[]
}

/** An action file as the editor shows it. */
export interface ActionFile {
  v: string
  sections: Section[]
}

/** Decodes the HTML entities Privoxy's templates write. */
function unescape(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
}

/** Reads action file `file` (user.action unless told) from the editor's list page. */
export async function readActionFile(app: AppInstance, file = USER_ACTION): Promise<ActionFile> {
  const html = await getText(app, undefined, `/edit-actions-list?f=${file}`)
  const v = /[?&;]v=(\d+)/.exec(html)?.[1]
  if (!v) throw new Error(`/edit-actions-list?f=${file} shows no file version v`)
  const sections: Section[] = []
  const chunks = html.split(/<tr><td class="container"><a name="l(\d+)"><\/a>/)
  for (let i = 1; i + 1 < chunks.length; i += 2) {
    const s = Number(chunks[i])
    const body = chunks[i + 1]!
    const actions = [...body.matchAll(/<td class="action">([\s\S]*?)<\/td>/g)]
      .flatMap((m) => unescape(m[1]!.replace(/<br>/g, '\n').replace(/<[^>]+>/g, '')).split('\n'))
      .map((a) => a.trim())
      .filter(Boolean)
    const patterns = [
      ...body.matchAll(/href="eau\?[^"]*?p=(\d+)"[^>]*>Edit<\/a>&nbsp; ([^<]*)<\/td>/g),
    ].map((m) => ({ p: Number(m[1]), pattern: unescape(m[2]!).trim() }))
    sections.push({ s, actions, patterns })
  }
  return { v, sections }
}

/** The section whose block message is `message` (`+block{<message>}`), if any. */
export function sectionBlocking(file: ActionFile, message: string): Section | undefined {
  return file.sections.find((s) => s.actions.includes(`+block{${message}}`))
}

/** The section that lists `pattern`, if any. */
export function sectionWith(file: ActionFile, pattern: string): Section | undefined {
  return file.sections.find((s) => s.patterns.some((p) => p.pattern === pattern))
}

/** Every pattern of the file. */
export function allPatterns(file: ActionFile): string[] {
  return file.sections.flatMap((s) => s.patterns.map((p) => p.pattern))
}

/** The lines of an HTML answer's text (tags dropped, entities decoded, trimmed). */
export function textLines(html: string): string[] {
  return unescape(html.replace(/<br>/g, '\n').replace(/<[^>]+>/g, '\n'))
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
