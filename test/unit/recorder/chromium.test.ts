import { describe, expect, it } from 'vitest'
import {
  chromiumArgs,
  defaultChromiumPaths,
  findChromium,
  requireChromium,
} from '../../../src/main/recorder/chromium'

const existing =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path)

describe('findChromium', () => {
  it('prefers SITECALL_CHROMIUM over the setting and the usual paths', () => {
    const found = findChromium({
      env: { SITECALL_CHROMIUM: '/opt/chrome/chrome' },
      settingPath: '/opt/setting/chromium',
      exists: existing('/opt/chrome/chrome', '/opt/setting/chromium', '/usr/bin/chromium'),
      platform: 'linux',
    })
    expect(found).toEqual({ path: '/opt/chrome/chrome', source: 'env', hint: null })
  })

  it('uses the setting when the env variable is unset or blank', () => {
    for (const env of [{}, { SITECALL_CHROMIUM: '  ' }]) {
      const found = findChromium({
        env,
        settingPath: '/opt/setting/chromium',
        exists: existing('/opt/setting/chromium', '/usr/bin/chromium'),
        platform: 'linux',
      })
      expect(found).toEqual({ path: '/opt/setting/chromium', source: 'setting', hint: null })
    }
  })

  it('falls back to the usual paths of the platform, in order', () => {
    expect(
      findChromium({
        env: {},
        exists: existing('/usr/bin/google-chrome', '/snap/bin/chromium'),
        platform: 'linux',
      }),
    ).toEqual({ path: '/usr/bin/google-chrome', source: 'default', hint: null })
    expect(
      findChromium({
        env: {},
        exists: existing('/Applications/Chromium.app/Contents/MacOS/Chromium'),
        platform: 'darwin',
      }).path,
    ).toBe('/Applications/Chromium.app/Contents/MacOS/Chromium')
    expect(
      findChromium({
        env: {},
        exists: existing('C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe'),
        platform: 'win32',
      }).path,
    ).toBe('C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe')
  })

  it('does not skip a bad SITECALL_CHROMIUM: null path and a hint naming it', () => {
    const found = findChromium({
      env: { SITECALL_CHROMIUM: '/nope/chrome' },
      exists: existing('/usr/bin/chromium'),
      platform: 'linux',
    })
    expect(found.path).toBeNull()
    expect(found.source).toBeNull()
    expect(found.hint).toContain('/nope/chrome')
    expect(found.hint).toContain('SITECALL_CHROMIUM')
  })

  it('does not skip a bad setting path either', () => {
    const found = findChromium({
      env: {},
      settingPath: '/nope/setting',
      exists: existing('/usr/bin/chromium'),
      platform: 'linux',
    })
    expect(found.path).toBeNull()
    expect(found.hint).toContain('/nope/setting')
  })

  it('says exactly what to do when nothing is found', () => {
    const linux = findChromium({ env: {}, exists: () => false, platform: 'linux' })
    expect(linux).toMatchObject({ path: null, source: null })
    expect(linux.hint).toContain('sudo apt-get install chromium')
    expect(linux.hint).toContain('SITECALL_CHROMIUM')
    const mac = findChromium({ env: {}, exists: () => false, platform: 'darwin' })
    expect(mac.hint).toContain('Google Chrome')
    expect(mac.hint).toContain('SITECALL_CHROMIUM')
  })
})

describe('requireChromium', () => {
  it('returns the path when found', () => {
    expect(
      requireChromium({ env: {}, exists: existing('/usr/bin/chromium'), platform: 'linux' }),
    ).toBe('/usr/bin/chromium')
  })

  it('throws chromium_not_found (503) with the hint when none', () => {
    expect(() => requireChromium({ env: {}, exists: () => false, platform: 'linux' })).toThrow(
      expect.objectContaining({
        name: 'ServiceError',
        code: 'chromium_not_found',
        status: 503,
        message: expect.stringContaining('apt-get install chromium'),
      }),
    )
  })
})

describe('chromiumArgs', () => {
  it('always quiets background networking and first-run UI', () => {
    expect(chromiumArgs()).toEqual([
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
    ])
    const args = chromiumArgs()
    args.push('--x')
    expect(chromiumArgs()).not.toContain('--x')
  })

  it('lists the Debian path first on Linux', () => {
    expect(defaultChromiumPaths('linux')[0]).toBe('/usr/bin/chromium')
  })
})
