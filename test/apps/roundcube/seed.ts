/**
 * The deterministic seed of the Roundcube instance: the IMAP user (Dovecot passwd-file), the
 * messages appended to each mailbox in a fixed order (so every start gives the same UIDs), and
 * the Roundcube database rows (the user, their identity and their address book).
 */

/** The mail user the workflows sign in as. */
export const MAIN_USER = { name: 'ada', password: 'Lovelace-1843', email: 'ada@example.org' }

/** The mailboxes Dovecot creates and subscribes at the first login, besides INBOX. */
export const FOLDERS = ['Drafts', 'Sent', 'Trash', 'Junk', 'Archive', 'Projects', 'Receipts']

/** One seeded message. */
export interface SeedMessage {
  subject: string
  from: string
  /** `Wed, 18 Nov 2026 09:15:00 +0000` */
  date: string
  body: string
  seen?: boolean
}

/** A message of `day` November 2026 at `time` (UTC). */
function nov(day: number, time: string): string {
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][(day + 6) % 7]
  return `${weekday}, ${day} Nov 2026 ${time}:00 +0000`
}

/**
 * The messages of each mailbox, in UID order (INBOX UIDs are 1..15). Each workflow owns its own
 * messages (a read's, a write's recorded and changed ones), so the workflows of one instance
 * never move away what another needs.
 */
export const MESSAGES: Record<string, SeedMessage[]> = {
  INBOX: [
    {
      subject: 'Invoice 2026-114 from Nordwind Hosting',
      from: 'Nordwind Billing <billing@nordwind.example>',
      date: nov(2, '08:10'),
      body: 'Your invoice 2026-114 for the hosting of November is attached. Amount due: 48.00 EUR.',
      seen: true,
    },
    {
      subject: 'Quarterly budget review',
      from: 'Grace Hopper <grace@example.org>',
      date: nov(3, '09:30'),
      body: 'Hi Ada, the quarterly budget review is on Thursday at 10:00 in room Babbage. Please bring the Q4 forecast.',
      seen: true,
    },
    {
      subject: 'Team offsite in March',
      from: 'Linus Pauling <linus@example.org>',
      date: nov(4, '11:00'),
      body: 'The team offsite will be in Lisbon from 16 to 18 March. Hotel booking follows.',
    },
    {
      subject: 'Server maintenance window',
      from: 'Ops Team <ops@example.org>',
      date: nov(5, '16:45'),
      body: 'The mail server is down for maintenance on Saturday from 06:00 to 08:00 UTC.',
    },
    {
      subject: 'Release notes for v4.2',
      from: 'Release Bot <releases@example.org>',
      date: nov(6, '10:05'),
      body: 'Version 4.2 adds dark mode, faster search and fixes the calendar export bug.',
      seen: true,
    },
    {
      subject: 'Design review notes',
      from: 'Margaret Hamilton <margaret@example.org>',
      date: nov(9, '14:20'),
      body: 'Notes from the design review: the onboarding screens need a second pass before Friday.',
    },
    {
      subject: 'Lunch on Friday?',
      from: 'Margaret Hamilton <margaret@example.org>',
      date: nov(10, '12:00'),
      body: 'Shall we try the new noodle bar on Friday at 12:30?',
    },
    {
      subject: 'Conference travel booking',
      from: 'Travel Desk <travel@example.org>',
      date: nov(11, '08:40'),
      body: 'Your flight to the conference in Berlin is booked: LH 2471, 3 December, 07:15.',
    },
    {
      subject: 'Parking garage closed on Monday',
      from: 'Facilities <facilities@example.org>',
      date: nov(12, '17:30'),
      body: 'The parking garage is closed on Monday for cleaning. Please use the street lots.',
      seen: true,
    },
    {
      subject: 'Old newsletter: October edition',
      from: 'Company News <news@example.org>',
      date: nov(13, '07:00'),
      body: 'The October newsletter: new hires, the summer party photos and the office plants.',
      seen: true,
    },
    {
      subject: 'Shipping confirmation #48213',
      from: 'Papercloud Shop <shop@papercloud.example>',
      date: nov(16, '13:15'),
      body: 'Your order 48213 (two boxes of printer paper) has shipped.',
      seen: true,
    },
    {
      subject: 'Photos from the summer party',
      from: 'Linus Pauling <linus@example.org>',
      date: nov(17, '19:05'),
      body: 'Here are the photos from the summer party at the lake.',
    },
    {
      subject: 'Welcome to the mailing list',
      from: 'Lists <lists@example.org>',
      date: nov(18, '06:30'),
      body: 'Welcome to the engineering-announce mailing list.',
      seen: true,
    },
    {
      subject: 'You have won a prize',
      from: 'Prize Center <winner@lottery.example>',
      date: nov(19, '03:12'),
      body: 'Congratulations, click here to claim your prize.',
    },
    {
      subject: 'Unsubscribe confirmation',
      from: 'Lists <lists@example.org>',
      date: nov(20, '06:31'),
      body: 'You have been unsubscribed from the marketing-weekly mailing list.',
      seen: true,
    },
  ],
  Projects: [
    {
      subject: 'Website relaunch plan',
      from: 'Grace Hopper <grace@example.org>',
      date: nov(2, '15:00'),
      body: 'The website relaunch goes live on 1 February.',
      seen: true,
    },
    {
      subject: 'Mobile app kickoff',
      from: 'Linus Pauling <linus@example.org>',
      date: nov(8, '10:00'),
      body: 'Kickoff for the mobile app is next Tuesday.',
      seen: true,
    },
  ],
  Receipts: [
    {
      subject: 'Receipt for order 1182',
      from: 'Papercloud Shop <shop@papercloud.example>',
      date: nov(1, '18:00'),
      body: 'Thank you for your order 1182.',
      seen: true,
    },
  ],
  Archive: [
    {
      subject: '2025 annual report',
      from: 'Finance <finance@example.org>',
      date: nov(1, '09:00'),
      body: 'The 2025 annual report is final.',
      seen: true,
    },
  ],
}

/** The message `m` of `mailbox` (index `i`) as RFC 5322 text with CRLF line ends. */
export function messageText(m: SeedMessage, mailbox: string, i: number): string {
  const id = `<seed-${mailbox.toLowerCase()}-${i + 1}@example.org>`
  return [
    `From: ${m.from}`,
    `To: Ada Lovelace <${MAIN_USER.email}>`,
    `Subject: ${m.subject}`,
    `Date: ${m.date}`,
    `Message-ID: ${id}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    m.body,
    '',
  ].join('\r\n')
}

/** Contacts of the personal address book (ids 1..n). */
const CONTACTS = [
  { firstname: 'Grace', surname: 'Hopper', email: 'grace@example.org' },
  { firstname: 'Linus', surname: 'Pauling', email: 'linus@example.org' },
  { firstname: 'Margaret', surname: 'Hamilton', email: 'margaret@example.org' },
  { firstname: 'Alan', surname: 'Turing', email: 'alan.turing@example.org' },
]

/** SQLite string literal. */
function q(s: string): string {
  return `'${s.replace(/'/g, "''")}'`
}

/**
 * The rows Roundcube would otherwise create at the first login (user 1 on host 127.0.0.1, its
 * default identity 1), plus the address book. `mail_host` is the IMAP host without the port,
 * as Roundcube stores it, so the row matches whatever free port Dovecot got.
 */
export function seedSql(): string {
  const at = '2026-11-01 08:00:00'
  const lines = [
    `INSERT INTO users (user_id, username, mail_host, created, language) VALUES (1, ${q(MAIN_USER.name)}, '127.0.0.1', '${at}', 'en_US');`,
    `INSERT INTO identities (identity_id, user_id, changed, standard, name, organization, email, signature) VALUES (1, 1, '${at}', 1, 'Ada Lovelace', 'Analytical Engines Ltd', ${q(MAIN_USER.email)}, '');`,
    `INSERT INTO identities (identity_id, user_id, changed, standard, name, organization, email, signature) VALUES (2, 1, '${at}', 0, 'Ada (Support)', 'Analytical Engines Ltd', 'support@example.org', 'The support team');`,
  ]
  CONTACTS.forEach((c, i) => {
    const name = `${c.firstname} ${c.surname}`
    const vcard = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      `N:${c.surname};${c.firstname};;;`,
      `FN:${name}`,
      `EMAIL;TYPE=INTERNET;TYPE=HOME:${c.email}`,
      'END:VCARD',
    ].join('\r\n')
    const words = ` ${c.firstname.toLowerCase()} ${c.surname.toLowerCase()} ${c.email}`
    lines.push(
      `INSERT INTO contacts (contact_id, user_id, changed, name, email, firstname, surname, vcard, words) VALUES (${i + 1}, 1, '${at}', ${q(name)}, ${q(c.email)}, ${q(c.firstname)}, ${q(c.surname)}, ${q(vcard)}, ${q(words)});`,
    )
  })
  return lines.join('\n') + '\n'
}
