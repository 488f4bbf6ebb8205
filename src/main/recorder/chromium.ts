import { existsSync } from 'node:fs'
import { ServiceError } from '../../shared/errors'

/** Where a Chromium binary was found: the env variable, the app setting, or a usual install path. */
type ChromiumSource = 'env' | 'setting' | 'default'

/** Inputs of {@link findChromium}; every field defaults to the real process and file system. */
export interface FindChromiumOptions {
  /** Environment to read `SITECALL_CHROMIUM` (and Windows' `LOCALAPPDATA`) from; default `process.env`. */
  env?: Record<string, string | undefined>
  /** The app setting `chromiumPath`, if the person set one. */
  settingPath?: string | null
  /** File-existence check; default `fs.existsSync`. */
  exists?: (path: string) => boolean
  /** Platform whose usual paths to try; default `process.platform`. */
  platform?: NodeJS.Platform
}

/**
 * The result of {@link findChromium}: `path` is an existing binary or `null`; `hint` is a
 * sentence for the person saying what went wrong and what to do (`null` when found).
 */
export interface ChromiumLocation {
  path: string | null
  source: ChromiumSource | null
  hint: string | null
}

/** The env variable that names a Chromium/Chrome binary explicitly. */
const CHROMIUM_ENV = 'SITECALL_CHROMIUM'

/** The usual install paths of Chromium/Chrome on a platform, most likely first. */
export function defaultChromiumPaths(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined> = {},
): string[] {
  switch (platform) {
    case 'linux':
      return [
        '/usr/bin/chromium',
        '/usr/bin/chromium-browser',
        '/usr/bin/google-chrome',
        '/usr/bin/google-chrome-stable',
        '/snap/bin/chromium',
      ]
    case 'darwin':
      return [
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
      ]
    case 'win32': {
      const programFiles = env['PROGRAMFILES'] ?? 'C:\\Program Files'
      const programFilesX86 = env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)'
      const paths = [
        `${programFiles}\\Google\\Chrome\\Application\\chrome.exe`,
        `${programFilesX86}\\Google\\Chrome\\Application\\chrome.exe`,
      ]
      // Per-user Chrome installs (no admin rights) land under LOCALAPPDATA.
      const local = env['LOCALAPPDATA']
      if (local) paths.push(`${local}\\Google\\Chrome\\Application\\chrome.exe`)
      return paths
    }
    default:
      return []
  }
}

function installHint(platform: NodeJS.Platform): string {
  const pointEnv = `or set ${CHROMIUM_ENV} to the path of a Chromium or Google Chrome binary`
  switch (platform) {
    case 'linux':
      return `No Chromium found. On Debian/Ubuntu run \`sudo apt-get install chromium\`, ${pointEnv}.`
    case 'darwin':
      return `No Chromium found. Install Google Chrome (https://www.google.com/chrome/) into /Applications, ${pointEnv}.`
    case 'win32':
      return `No Chromium found. Install Google Chrome (https://www.google.com/chrome/), ${pointEnv}.`
    default:
      return `No Chromium found. Install Chromium or Google Chrome, ${pointEnv}.`
  }
}

/**
 * Finds the Chromium binary to record with. Order: `SITECALL_CHROMIUM`, then the app setting,
 * then the usual paths of the platform. An explicit path (env or setting) that does not exist is
 * not skipped in favour of a default — the person asked for it — so the result is `path: null`
 * with a hint naming that path. Never throws.
 *
 * @returns `{path, source, hint}`; `hint` is `null` exactly when `path` is set.
 */
export function findChromium(options: FindChromiumOptions = {}): ChromiumLocation {
  const env = options.env ?? process.env
  const exists = options.exists ?? existsSync
  const platform = options.platform ?? process.platform

  const fromEnv = env[CHROMIUM_ENV]?.trim()
  if (fromEnv) {
    if (exists(fromEnv)) return { path: fromEnv, source: 'env', hint: null }
    return {
      path: null,
      source: null,
      hint: `${CHROMIUM_ENV} is set to ${fromEnv}, but no file exists there. Point it at a Chromium or Google Chrome binary, or unset it.`,
    }
  }

  const fromSetting = options.settingPath?.trim()
  if (fromSetting) {
    if (exists(fromSetting)) return { path: fromSetting, source: 'setting', hint: null }
    return {
      path: null,
      source: null,
      hint: `The Chromium path setting is ${fromSetting}, but no file exists there. Change the setting to a Chromium or Google Chrome binary, or clear it.`,
    }
  }

  for (const candidate of defaultChromiumPaths(platform, env)) {
    if (exists(candidate)) return { path: candidate, source: 'default', hint: null }
  }
  return { path: null, source: null, hint: installHint(platform) }
}

/**
 * Like {@link findChromium} but returns the path only.
 *
 * @throws ServiceError `chromium_not_found` (503) whose message is the hint.
 */
export function requireChromium(options: FindChromiumOptions = {}): string {
  const found = findChromium(options)
  if (found.path === null) {
    throw new ServiceError('chromium_not_found', found.hint ?? 'No Chromium found.')
  }
  return found.path
}

/**
 * The command-line flags every Chromium this app launches gets (recording, rendered runs, browse).
 * A fresh array each call, so callers may append.
 */
export function chromiumArgs(): string[] {
  return [
    // Root in containers and CI has no usable user-namespace sandbox.
    '--no-sandbox',
    '--disable-gpu',
    // On closed or offline networks a default Chromium keeps dialling Google services (updates,
    // sync, safe browsing) and floods the trace and the logs with refused connections.
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
  ]
}
