/**
 * The seed of the MailDev instance, the same on every start: sixteen emails written as `.eml`
 * files with fixed ids (MailDev names a stored email after its file, `<id>.eml`, and restores the
 * mail directory on start), their attachment files where MailDev looks for them, and three more
 * emails delivered over SMTP once it runs, so the inbox also holds unread mail (MailDev marks
 * every restored email read). Every email carries a fixed `Date`, which MailDev keeps as its time.
 *
 * Grouped by workflow so that no workflow touches what another reads or changes: each block below
 * names the workflow whose recorded and changed values it holds.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { Socket } from 'node:net'

/** The one account of the web UI (`--web-user`/`--web-pass`): HTTP Basic, nothing else. */
export const USER = { name: 'dana', password: 'Catch-Every-Mail-7' } as const

/** One attachment: its file name, type and text. */
export interface SeedAttachment {
  filename: string
  contentType: string
  content: string
}

/** One seeded email. */
export interface SeedEmail {
  /** Fixed id (the `.eml` file's name); null for the ones delivered over SMTP (MailDev picks). */
  id: string | null
  subject: string
  from: { name: string; address: string }
  to: { name: string; address: string }
  /** RFC 2822 date: MailDev sorts and shows by it. */
  date: string
  text: string
  html?: string
  attachment?: SeedAttachment
}

const TO = { name: 'Dana Dev', address: 'dana@example.test' }

/** Restored from the mail directory (read), with fixed ids. */
export const STORED: SeedEmail[] = [
  // view_html: the recorded one and its two changed values (each with its own HTML marker).
  {
    id: 'w3lc0m3a',
    subject: 'Welcome to Acme Cloud',
    from: { name: 'Acme Cloud', address: 'hello@acme.test' },
    to: TO,
    date: 'Mon, 02 Mar 2026 09:00:00 +0000',
    text: 'Hi Dana, your Acme Cloud workspace is ready. Start with the getting-started guide.',
    html: '<h1>Welcome aboard, Dana</h1><p>Your <b>Acme Cloud</b> workspace is ready.</p><p><a href="https://acme.test/start">Open the getting-started guide</a></p>',
  },
  {
    id: 'rst9pw2k',
    subject: 'Reset your password',
    from: { name: 'Acme Security', address: 'security@acme.test' },
    to: TO,
    date: 'Tue, 03 Mar 2026 10:15:00 +0000',
    text: 'Someone asked to reset the password of your account. Use code 731905 within 15 minutes.',
    html: '<h2>Password reset requested</h2><p>Use the one-time code <strong>731905</strong> within 15 minutes.</p>',
  },
  {
    id: 'vrfy4e8m',
    subject: 'Verify your email address',
    from: { name: 'Acme Cloud', address: 'hello@acme.test' },
    to: TO,
    date: 'Tue, 03 Mar 2026 11:40:00 +0000',
    text: 'Confirm that dana@example.test is yours: open the verification link.',
    html: '<h2>Confirm your address</h2><p>Click <a href="https://acme.test/verify/q8x2">Verify my address</a> to finish signing up.</p>',
  },
  // download_attachment: one attachment each.
  {
    id: 'inv1042x',
    subject: 'Your invoice INV-1042',
    from: { name: 'Acme Billing', address: 'billing@acme.test' },
    to: TO,
    date: 'Wed, 04 Mar 2026 08:30:00 +0000',
    text: 'Please find attached invoice INV-1042 for February (EUR 120.00).',
    attachment: {
      filename: 'invoice-1042.txt',
      contentType: 'text/plain',
      content:
        'INVOICE INV-1042\nAcme Cloud, February 2026\nStandard plan: EUR 120.00\nDue: 2026-03-31\n',
    },
  },
  {
    id: 'inv1043y',
    subject: 'Your invoice INV-1043',
    from: { name: 'Acme Billing', address: 'billing@acme.test' },
    to: TO,
    date: 'Wed, 04 Mar 2026 08:31:00 +0000',
    text: 'Please find attached invoice INV-1043 for extra storage (EUR 35.50).',
    attachment: {
      filename: 'invoice-1043.txt',
      contentType: 'text/plain',
      content:
        'INVOICE INV-1043\nAcme Cloud, extra storage\nStorage add-on 500 GB: EUR 35.50\nDue: 2026-04-03\n',
    },
  },
  {
    id: 'qrt1rp7z',
    subject: 'Quarterly report Q1',
    from: { name: 'Finance Team', address: 'finance@example.test' },
    to: TO,
    date: 'Thu, 05 Mar 2026 16:05:00 +0000',
    text: 'Attached are the Q1 figures, by region.',
    attachment: {
      filename: 'q1-figures.csv',
      contentType: 'text/csv',
      content: 'region,revenue\nNorth,41200\nSouth,38950\nWest,27300\n',
    },
  },
  // delete_email
  {
    id: 'lnch5fri',
    subject: 'Team lunch on Friday',
    from: { name: 'Office Manager', address: 'office@example.test' },
    to: TO,
    date: 'Fri, 06 Mar 2026 09:20:00 +0000',
    text: 'We are booking a table at Nonna Rosa for 12:30. Reply if you want to join.',
  },
  {
    id: 'bld8fail',
    subject: 'Build failed on main',
    from: { name: 'CI Bot', address: 'ci@example.test' },
    to: TO,
    date: 'Fri, 06 Mar 2026 14:02:00 +0000',
    text: 'Pipeline 8812 failed at the unit-tests stage: 3 tests failed in checkout.spec.ts.',
  },
  {
    id: 'dsk2warn',
    subject: 'Disk space warning on db-2',
    from: { name: 'Monitoring', address: 'alerts@example.test' },
    to: TO,
    date: 'Sat, 07 Mar 2026 03:45:00 +0000',
    text: 'The volume /var/lib/postgresql on db-2 is 91% full.',
  },
  // relay_email
  {
    id: 'shp5521a',
    subject: 'Order 5521 has shipped',
    from: { name: 'Shop Orders', address: 'orders@shop.test' },
    to: TO,
    date: 'Mon, 09 Mar 2026 12:00:00 +0000',
    text: 'Your order 5521 (1 x USB-C hub) left our warehouse. Tracking: TRK5521.',
  },
  {
    id: 'shp5522b',
    subject: 'Order 5522 has shipped',
    from: { name: 'Shop Orders', address: 'orders@shop.test' },
    to: TO,
    date: 'Mon, 09 Mar 2026 12:10:00 +0000',
    text: 'Your order 5522 (2 x HDMI cable) left our warehouse. Tracking: TRK5522.',
  },
  {
    id: 'shp5523c',
    subject: 'Order 5523 has shipped',
    from: { name: 'Shop Orders', address: 'orders@shop.test' },
    to: TO,
    date: 'Mon, 09 Mar 2026 12:20:00 +0000',
    text: 'Your order 5523 (1 x laptop stand) left our warehouse. Tracking: TRK5523.',
  },
  // read_email
  {
    id: 'mtgn0tes',
    subject: 'Meeting notes: sprint planning',
    from: { name: 'Priya Shah', address: 'priya@example.test' },
    to: TO,
    date: 'Tue, 10 Mar 2026 15:30:00 +0000',
    text: 'Sprint 14 goals: finish the export wizard, fix the login redirect, and draft the pricing page.',
  },
  {
    id: 'wkdgst11',
    subject: 'Your weekly digest',
    from: { name: 'Acme Community', address: 'digest@acme.test' },
    to: TO,
    date: 'Wed, 11 Mar 2026 07:00:00 +0000',
    text: 'Top thread this week: migrating cron jobs to scheduled workflows (42 replies).',
  },
  {
    id: 'cntrct9r',
    subject: 'Contract renewal reminder',
    from: { name: 'Legal', address: 'legal@example.test' },
    to: TO,
    date: 'Thu, 12 Mar 2026 10:00:00 +0000',
    text: 'The hosting contract with Northwind renews on 1 April; notice period ends 18 March.',
  },
  // Only listed and searched.
  {
    id: 'sgn1nalr',
    subject: 'Security alert: new sign-in',
    from: { name: 'Acme Security', address: 'security@acme.test' },
    to: TO,
    date: 'Fri, 13 Mar 2026 22:10:00 +0000',
    text: 'A new sign-in to your account from Firefox on Linux.',
  },
]

/** Delivered over SMTP after the start, so they are unread; the newest of the inbox. */
export const DELIVERED: SeedEmail[] = [
  {
    id: null,
    subject: 'New comment on your pull request',
    from: { name: 'Code Review', address: 'review@example.test' },
    to: TO,
    date: 'Mon, 16 Mar 2026 09:05:00 +0000',
    text: 'Sam commented on "Add CSV export": looks good, one nit about the header row.',
  },
  {
    id: null,
    subject: 'Reminder: timesheet due today',
    from: { name: 'HR', address: 'hr@example.test' },
    to: TO,
    date: 'Mon, 16 Mar 2026 11:00:00 +0000',
    text: 'Please submit your timesheet for week 11 before 17:00.',
  },
  {
    id: null,
    subject: 'Invitation: design review',
    from: { name: 'Priya Shah', address: 'priya@example.test' },
    to: TO,
    date: 'Mon, 16 Mar 2026 13:30:00 +0000',
    text: 'Design review of the new onboarding flow, Tuesday 14:00, room Atlas.',
  },
]

/** Every seeded email. */
export const ALL_EMAILS: SeedEmail[] = [...STORED, ...DELIVERED]

/** The seeded email with `subject`; throws when there is none (a typo in a key). */
export function seeded(subject: string): SeedEmail {
  const found = ALL_EMAILS.find((e) => e.subject === subject)
  if (!found) throw new Error(`no seeded email "${subject}"`)
  return found
}

/**
 * The name MailDev gives an attachment's file (its `generatedFileName`, which is also the last
 * path segment of the download URL): the MD5 of `<filename>-<size in bytes>` (no Content-ID
 * here) with the file's own extension, as `@maildev/smtp`'s attachments.js does.
 */
export function attachmentFileName(a: SeedAttachment): string {
  const size = Buffer.byteLength(a.content, 'utf8')
  const hash = createHash('md5').update(`${a.filename}-${size}`).digest('hex')
  return `${hash}${extname(a.filename)}`
}

const address = (p: { name: string; address: string }): string => `${p.name} <${p.address}>`

/** Base64 in lines of 76, as MIME wants it. */
function base64Lines(text: string): string {
  return (
    Buffer.from(text, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n')
}

/**
 * The raw message (CRLF lines): plain text alone, text and HTML as multipart/alternative, and an
 * attachment (base64) wrapped with them in multipart/mixed. Boundaries and Message-IDs are fixed.
 */
function rawMessage(email: SeedEmail, key: string): string {
  const head = [
    `From: ${address(email.from)}`,
    `To: ${address(email.to)}`,
    `Subject: ${email.subject}`,
    `Date: ${email.date}`,
    `Message-ID: <${key}@seed.maildev.test>`,
    'MIME-Version: 1.0',
  ]
  const textPart = ['Content-Type: text/plain; charset=utf-8', '', email.text, '']
  let body: string[]
  if (email.html) {
    body = [
      'Content-Type: multipart/alternative; boundary="alt-boundary"',
      '',
      '--alt-boundary',
      ...textPart,
      '--alt-boundary',
      'Content-Type: text/html; charset=utf-8',
      '',
      `<html><body>${email.html}</body></html>`,
      '',
      '--alt-boundary--',
      '',
    ]
  } else body = textPart
  if (email.attachment) {
    const a = email.attachment
    body = [
      'Content-Type: multipart/mixed; boundary="mixed-boundary"',
      '',
      '--mixed-boundary',
      ...body,
      '--mixed-boundary',
      `Content-Type: ${a.contentType}; name="${a.filename}"`,
      `Content-Disposition: attachment; filename="${a.filename}"`,
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(a.content),
      '',
      '--mixed-boundary--',
      '',
    ]
  }
  // The single-part case carries its Content-Type among the headers.
  return [...head, ...body].join('\r\n')
}

/**
 * Writes the stored emails into `mailDir` as MailDev keeps them: `<id>.eml`, and each attachment
 * as `<id>/<generatedFileName>` (MailDev restores the email from the `.eml` but serves an
 * attachment from that file, which only its SMTP path writes).
 */
export function writeStoredEmails(mailDir: string): void {
  mkdirSync(mailDir, { recursive: true })
  for (const email of STORED) {
    const id = email.id!
    writeFileSync(join(mailDir, `${id}.eml`), rawMessage(email, id))
    if (email.attachment) {
      mkdirSync(join(mailDir, id), { recursive: true })
      writeFileSync(
        join(mailDir, id, attachmentFileName(email.attachment)),
        email.attachment.content,
      )
    }
  }
}

/**
 * Delivers `email` to the SMTP server on `127.0.0.1:port` with a plain SMTP dialogue (no TLS, no
 * AUTH: MailDev asks for neither), as an app under test would send it. Resolves once the server
 * accepted the message.
 */
export function deliver(port: number, email: SeedEmail, key: string): Promise<void> {
  const data = rawMessage(email, key)
    .split('\r\n')
    // Dot-stuffing (RFC 5321 §4.5.2).
    .map((line) => (line.startsWith('.') ? `.${line}` : line))
    .join('\r\n')
  const steps = [
    'EHLO seed.maildev.test',
    `MAIL FROM:<${email.from.address}>`,
    `RCPT TO:<${email.to.address}>`,
    'DATA',
    `${data}\r\n.`,
    'QUIT',
  ]
  return new Promise((resolve, reject) => {
    const socket = new Socket()
    let buffer = ''
    let step = -1
    socket.setTimeout(10_000, () => socket.destroy(new Error('SMTP timed out')))
    socket.on('error', reject)
    socket.on('close', () =>
      step >= steps.length - 1 ? resolve() : reject(new Error('SMTP closed')),
    )
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8')
      // A reply is complete at a line "NNN text" (a space after the code, not a dash).
      const lines = buffer.split('\r\n')
      // Only whole lines: the last element is what came after the last CRLF.
      buffer = lines.pop() ?? ''
      const last = lines.reverse().find((l) => /^\d{3} /.test(l))
      if (!last) return
      const code = Number(last.slice(0, 3))
      if (code >= 400) {
        socket.destroy(new Error(`SMTP answered: ${last}`))
        return
      }
      step++
      if (step < steps.length) socket.write(`${steps[step]}\r\n`)
    })
    socket.connect(port, '127.0.0.1')
  })
}
