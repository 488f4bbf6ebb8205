import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { isAbsolute } from 'node:path'
import type { AppApiInput, AppSettings } from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import { writeSettings, type Settings } from '../config'
import { DEFAULT_RESULT_RETENTION } from '../store/runRepository'
import { findChromium } from '../recorder'

/** The bounds a result retention takes in the app: whole days and MiB. */
const RETENTION_LIMITS = { days: [1, 3650], maxMB: [1, 1_048_576] } as const

export interface AppSettingsDeps {
  home: string
  /** The settings the core runs with: changed in place, so what reads them sees the new ones. */
  settings: Settings
  env: Record<string, string | undefined>
  /** Told after a new retention was saved (the result sweep starts again with it). */
  onRetention?: (retention: { days: number; maxMB: number }) => void
}

/** The settings methods of the app (`settings.get`, `settings.update`). */
export interface AppSettingsService {
  get(): AppSettings
  /**
   * Checks, saves and applies a change. Errors: 400 `invalid_input` naming the field (a path
   * that is not an executable file, a retention out of bounds); nothing is saved then.
   */
  update(input: AppApiInput<'settings.update'>): Promise<AppSettings>
}

/**
 * Creates the settings service over the data dir's settings.json (`config.ts`). A Chromium path
 * applies to the next recording, sign-in or rendered run (each finds Chromium when it starts);
 * a retention applies to the next sweep, which runs at once. `SITECALL_CHROMIUM` still wins over
 * the setting, as at start, and the answer says so.
 */
export function createAppSettings(deps: AppSettingsDeps): AppSettingsService {
  const retention = () => ({
    days: deps.settings.resultRetention?.days ?? DEFAULT_RESULT_RETENTION.maxAgeMs / 86_400_000,
    maxMB: deps.settings.resultRetention?.maxMB ?? DEFAULT_RESULT_RETENTION.maxBytes / 1024 ** 2,
  })
  const get = (): AppSettings => ({
    dataDir: deps.home,
    chromiumPath: deps.settings.chromiumPath ?? null,
    chromium: findChromium({ env: deps.env, settingPath: deps.settings.chromiumPath ?? null }),
    resultRetention: retention(),
  })
  return {
    get,
    async update(input) {
      const next: Settings = { ...deps.settings }
      if (input.chromiumPath !== undefined) {
        const path = input.chromiumPath?.trim() ?? ''
        if (path) await checkChromium(path)
        if (path) next.chromiumPath = path
        else delete next.chromiumPath
      }
      if (input.resultRetention) {
        for (const field of ['days', 'maxMB'] as const) {
          const value = input.resultRetention[field]
          const [min, max] = RETENTION_LIMITS[field]
          if (!Number.isInteger(value) || value < min || value > max)
            throw new ServiceError(
              'invalid_input',
              `Result retention ${field === 'days' ? 'days' : 'size (MB)'} must be a whole number from ${min} to ${max}.`,
            )
        }
        next.resultRetention = { ...input.resultRetention }
      }
      writeSettings(deps.home, next)
      const retentionChanged =
        JSON.stringify(next.resultRetention) !== JSON.stringify(deps.settings.resultRetention)
      for (const key of Object.keys(deps.settings) as Array<keyof Settings>)
        delete deps.settings[key]
      Object.assign(deps.settings, next)
      if (retentionChanged) deps.onRetention?.(retention())
      return get()
    },
  }
}

/** A Chromium path must be absolute and name an executable file. 400 `invalid_input` else. */
async function checkChromium(path: string): Promise<void> {
  const refuse = (why: string) => {
    throw new ServiceError('invalid_input', `Chromium path ${path}: ${why}`)
  }
  if (!isAbsolute(path)) refuse('give the full path, starting at the root of the disk.')
  const info = await stat(path).catch(() => null)
  if (!info) refuse('no file exists there.')
  if (!info!.isFile()) refuse('this is a folder, not the browser program.')
  await access(path, constants.X_OK).catch(() => refuse('this file is not executable.'))
}
