import { describe, expect, it } from 'vitest'
import {
  denyPermissions,
  guardNavigation,
  isAppPage,
  RENDERER_CSP,
  type ContentsLike,
  type SessionLike,
} from '../../../src/main/desktop/security'

const APP_URL = 'file:///opt/sitecall/out/renderer/index.html'

/** A stand-in for a window's webContents (the OS edge): keeps the listeners it is given. */
function fakeContents() {
  const listeners = new Map<string, Parameters<ContentsLike['on']>[1]>()
  const contents: ContentsLike = {
    on(event, listener) {
      listeners.set(event, listener)
      return contents
    },
  }
  /** Fires a navigation event; true when the guard let it go on. */
  const fire = (event: 'will-navigate' | 'will-redirect', url: string) => {
    let prevented = false
    listeners.get(event)!({ url, preventDefault: () => (prevented = true) }, url)
    return !prevented
  }
  return { contents, fire }
}

describe('Electron guards (issue 13 item 7)', () => {
  it('keeps the window on its own page; other sites open in the browser', () => {
    const { contents, fire } = fakeContents()
    const opened: string[] = []
    guardNavigation(contents, APP_URL, (url) => opened.push(url))
    expect(fire('will-navigate', `${APP_URL}#/inbox`)).toBe(true)
    expect(fire('will-navigate', 'https://evil.example/')).toBe(false)
    expect(fire('will-redirect', 'http://127.0.0.1:7411/app/')).toBe(false)
    expect(fire('will-navigate', 'file:///etc/passwd')).toBe(false)
    expect(fire('will-navigate', 'javascript:alert(1)')).toBe(false)
    expect(opened).toEqual(['https://evil.example/', 'http://127.0.0.1:7411/app/'])
  })

  it('trusts the dev server by origin only', () => {
    expect(isAppPage('http://localhost:5173/#/tools', 'http://localhost:5173/')).toBe(true)
    expect(isAppPage('http://localhost:5174/', 'http://localhost:5173/')).toBe(false)
  })

  it('denies every permission request and check', () => {
    let request: Parameters<SessionLike['setPermissionRequestHandler']>[0] | null = null
    let check: Parameters<SessionLike['setPermissionCheckHandler']>[0] | null = null
    denyPermissions({
      setPermissionRequestHandler: (h) => (request = h),
      setPermissionCheckHandler: (h) => (check = h),
    })
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      let granted: boolean | null = null
      request!({}, permission, (g) => (granted = g))
      expect(granted).toBe(false)
      expect(check!({}, permission)).toBe(false)
    }
  })

  it("the CSP allows only the app's own scripts and no framing", () => {
    expect(RENDERER_CSP).toContain("script-src 'self'")
    expect(RENDERER_CSP).not.toMatch(/script-src[^;]*unsafe/)
    expect(RENDERER_CSP).toContain("frame-ancestors 'none'")
    expect(RENDERER_CSP).toContain("object-src 'none'")
  })
})
