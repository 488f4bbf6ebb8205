/**
 * The secret names of a site's saved login (`login.<host>.<part>`, `:` written `_`), shared by the
 * vault that stores them and the compiler that points a sign-in tool at them. Secret names take
 * letters, digits, `_`, `-` and `.` up to 64 characters (interface.md "Secrets").
 */
export type LoginSecretPart = 'username' | 'password' | 'totp'

/** The plain secret name of one part of a site's login, or null when it would pass 64 characters. */
export function plainLoginSecretName(siteHost: string, part: LoginSecretPart): string | null {
  const plain = `login.${siteHost.toLowerCase().replace(/[^a-z0-9.-]/g, '_')}.${part}`
  return plain.length <= 64 ? plain : null
}
