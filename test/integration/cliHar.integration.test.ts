import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importHarFile } from '../../src/main/recorder/har'
import { createStore } from '../../src/main/store/store'
import { startDirectorySite, type DirectorySite } from '../fixtures/sites/directory'
import { directorySearchHar } from '../fixtures/harness/directoryHar'

const bin = join(import.meta.dirname, '../../bin/sitecall.mjs')
const INTENT = 'search the AI tools directory for writing'
let site: DirectorySite
let dir: string
let harPath: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitecall-cli-har-'))
  site = await startDirectorySite()
  harPath = join(dir, 'directory-search.har')
  writeFileSync(harPath, JSON.stringify(await directorySearchHar(site.url, 'writing')))
})
afterAll(async () => {
  await site.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Runs the CLI with its own empty SITECALL_HOME; returns the home too. */
function sitecall(args: string[], home = mkdtempSync(join(dir, 'home-'))) {
  const out = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, SITECALL_HOME: home },
    encoding: 'utf8',
  })
  return { ...out, home }
}

interface CompileJson {
  traceId?: string
  candidate?: {
    id: string
    name: string
    evidence: { targetExchangeId: string; confidence?: number }
    steps: Array<{ request: { method: string; url: string } }>
  }
  target?: { method: string; url: string; body: string | null }
  alternatives?: Array<{ method: string; url: string; score: number; signals: unknown[] }>
  explanation?: { reason: string; missing: string[] }
}

describe('sitecall compile --har', () => {
  it('prints one JSON object in the contract shape and leaves the data dir untouched', () => {
    const out = sitecall(['compile', '--har', harPath, '--intent', INTENT, '--json'])
    const lines = out.stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    const answer = JSON.parse(lines[0]!) as CompileJson
    if (answer.candidate) {
      expect(out.status).toBe(0)
      expect(Object.keys(answer).sort()).toEqual(['alternatives', 'candidate', 'target'])
      // The candidate carries its confidence (issue 9), 0 to 1.
      expect(answer.candidate.evidence.confidence).toBeGreaterThanOrEqual(0)
      expect(answer.candidate.evidence.confidence).toBeLessThanOrEqual(1)
      expect(answer.alternatives!.length).toBeLessThanOrEqual(5)
      for (const a of answer.alternatives!)
        expect(a).toEqual({
          method: expect.any(String),
          url: expect.any(String),
          score: expect.any(Number),
          signals: expect.any(Array),
        })
    } else {
      expect(out.status).toBe(1)
      expect(Object.keys(answer)).toEqual(['explanation'])
      expect(answer.explanation!.reason).toEqual(expect.any(String))
    }
    expect(readdirSync(out.home)).toEqual([])
  })

  it('compiles the search POST of a HAR with no recorded actions, reporting it as recorded', () => {
    const out = sitecall(['compile', '--har', harPath, '--intent', INTENT, '--json'])
    const answer = JSON.parse(out.stdout) as CompileJson
    expect(answer.explanation).toBeUndefined()
    expect(out.status).toBe(0)
    expect(answer.target).toEqual({
      method: 'POST',
      url: `${site.url}/api/search`,
      body: JSON.stringify({ query: 'writing', verified: false, page: 1, perPage: 12 }),
    })
    expect(answer.candidate!.steps.at(-1)!.request.method).toBe('POST')
    // Noise is never the target nor an alternative.
    for (const a of answer.alternatives!) expect(a.url).not.toMatch(/\/collect|\/locales\//)
  })

  it('prints a short summary without --json, and exits 2 on a missing or invalid file', () => {
    const human = sitecall(['compile', '--har', harPath, '--intent', INTENT])
    expect(human.stdout).toMatch(/^(Candidate |No tool compiled: )/)
    expect(() => JSON.parse(human.stdout)).toThrow()

    const missing = sitecall(['compile', '--har', join(dir, 'nope.har'), '--intent', INTENT])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/nope\.har.*ENOENT/)
    const notHar = join(dir, 'not.har')
    writeFileSync(notHar, '<html>not a har</html>')
    const invalid = sitecall(['compile', '--har', notHar, '--intent', INTENT, '--json'])
    expect(invalid.status).toBe(2)
    expect(invalid.stderr).toContain('not a HAR 1.2 file')
    expect(invalid.stdout).toBe('')
    expect(sitecall(['compile', '--har', harPath]).status).toBe(2)
  })
})

describe('sitecall import-har and export-har', () => {
  it('stores the trace and its candidate, then exports the trace as the same HAR traffic', async () => {
    const imported = sitecall(['import-har', harPath, '--intent', INTENT, '--json'])
    const answer = JSON.parse(imported.stdout) as CompileJson
    expect(answer.traceId).toMatch(/^trc_[0-9A-Z]{26}$/)
    const store = createStore(join(imported.home, 'sitecall.db'))
    try {
      const trace = store.traces.get(answer.traceId!)!
      expect(trace.exchanges.map((e) => e.url)).toEqual(
        (await importHarFile(harPath, { traceId: 'x', intent: INTENT, now: 0 })).exchanges.map(
          (e) => e.url,
        ),
      )
      expect(trace.intent).toBe(INTENT)
      if (answer.candidate) {
        expect(imported.status).toBe(0)
        expect(store.tools.get(answer.candidate.id)).toMatchObject({
          status: 'candidate',
          evidence: { traceId: trace.id },
        })
      } else expect(imported.status).toBe(1)
    } finally {
      store.close()
    }

    const outFile = join(dir, 'exported.har')
    const exported = sitecall(['export-har', answer.traceId!, '--out', outFile], imported.home)
    expect(exported.status).toBe(0)
    expect(existsSync(outFile)).toBe(true)
    const har = JSON.parse(readFileSync(outFile, 'utf8')) as {
      log: {
        version: string
        creator: { name: string }
        entries: Array<{ request: { url: string } }>
      }
    }
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator.name).toBe('Sitecall')
    const again = await importHarFile(outFile, { traceId: 'y', intent: INTENT, now: 0 })
    const original = await importHarFile(harPath, { traceId: 'y', intent: INTENT, now: 0 })
    const keep = (t: typeof again) =>
      t.exchanges.map(({ method, url, requestBody, status, responseBody, resourceType }) => ({
        method,
        url,
        requestBody,
        status,
        responseBody,
        resourceType,
      }))
    expect(keep(again)).toEqual(keep(original))

    const toStdout = sitecall(['export-har', answer.traceId!], imported.home)
    expect(JSON.parse(toStdout.stdout)).toEqual(har)
    const unknown = sitecall(['export-har', 'trc_nope'], imported.home)
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toContain('No trace trc_nope')
  })

  it('export-har into a reader that stops early (| head) ends quietly with exit code 0', () => {
    const imported = sitecall(['import-har', harPath, '--intent', INTENT, '--json'])
    const { traceId } = JSON.parse(imported.stdout) as CompileJson
    const full = sitecall(['export-har', traceId!], imported.home)
    // More than a pipe's buffer (64 KiB on Linux): the writer meets the closed pipe.
    expect(full.stdout.length).toBeGreaterThan(65_536)
    const piped = spawnSync(
      'bash',
      ['-o', 'pipefail', '-c', `"$NODE" "$BIN" export-har "$TRACE" | head -c 100 >/dev/null`],
      {
        env: {
          ...process.env,
          SITECALL_HOME: imported.home,
          NODE: process.execPath,
          BIN: bin,
          TRACE: traceId!,
        },
        encoding: 'utf8',
      },
    )
    expect(piped.stderr).toBe('')
    expect(piped.status).toBe(0)
  }, 120_000)
})
