/**
 * The deterministic seed of Request Tracker, put in by a Perl script that loads RT's own library
 * (`RT::User`, `RT::Group`, `RT::Queue`, `RT::Ticket`) against the instance's fresh SQLite
 * database, right after `rt-setup-database --action init` and before the web server starts. RT
 * hands out ids in call order (users and groups share the principals' sequence, tickets have
 * their own), so every start gets the same ids.
 */

/**
 * RT's stock superuser, whom every workflow signs in as, with a password of its own (RT's stock
 * `password` would show up in every page that has a password field's name in it).
 */
export const ROOT = { name: 'root', password: 'Sitecall-RT-2026' }

/** Staff in the Helpdesk group (may own tickets): [username, real name, email]. */
export const STAFF: Array<[string, string, string]> = [
  ['alice', 'Alice Martin', 'alice@sitecall.test'],
  ['bruno', 'Bruno Keller', 'bruno@sitecall.test'],
  ['chloe', 'Chloe Dubois', 'chloe@sitecall.test'],
]

/** Queues added to RT's stock `General` (id 1; id 2 is RT's disabled `___Approvals`), in id order (3, 4, 5): [name, description]. */
export const QUEUES: Array<[string, string]> = [
  ['Support', 'Questions and problems from staff'],
  ['Facilities', 'Buildings, furniture and printers'],
  ['Accounts', 'Logins and access requests'],
]

/** A seeded ticket: queue, subject, requestor's email, status, owner (null: Nobody), first message. */
interface SeedTicket {
  queue: string
  subject: string
  requestor: string
  status: 'new' | 'open' | 'stalled'
  owner: string | null
  body: string
}

/** The seeded tickets in id order (ticket N is `TICKETS[N - 1]`). */
const TICKETS: SeedTicket[] = [
  {
    queue: 'Facilities',
    subject: 'Printer jams on floor 2',
    requestor: 'dora.lind@example.com',
    status: 'new',
    owner: null,
    body: 'The big printer next to the kitchen on floor 2 jams on every double-sided job.',
  },
  {
    queue: 'Support',
    subject: 'VPN disconnects after login',
    requestor: 'marc.olsen@example.com',
    status: 'open',
    owner: 'alice',
    body: 'The VPN client drops the connection about a minute after I log in from home.',
  },
  {
    queue: 'Support',
    subject: 'Laptop battery swelling',
    requestor: 'ines.garcia@example.com',
    status: 'new',
    owner: null,
    body: 'My laptop lid no longer closes, the battery seems to be swelling.',
  },
  {
    queue: 'Facilities',
    subject: 'Projector bulb out in room B',
    requestor: 'tom.reid@example.com',
    status: 'open',
    owner: 'bruno',
    body: 'The projector in meeting room B shows nothing, the bulb light is red.',
  },
  {
    queue: 'Accounts',
    subject: 'Password reset for payroll system',
    requestor: 'sara.kim@example.com',
    status: 'new',
    owner: null,
    body: 'I am locked out of the payroll system after three wrong passwords.',
  },
  {
    queue: 'Facilities',
    subject: 'Printer toner low in lobby',
    requestor: 'dora.lind@example.com',
    status: 'new',
    owner: null,
    body: 'The lobby printer says the black toner is almost empty.',
  },
  {
    queue: 'Support',
    subject: 'Email quota exceeded',
    requestor: 'paul.weber@example.com',
    status: 'open',
    owner: 'chloe',
    body: 'Outlook says my mailbox is full and I cannot send anything.',
  },
  {
    queue: 'Facilities',
    subject: 'Broken chair in meeting room A',
    requestor: 'tom.reid@example.com',
    status: 'open',
    owner: 'bruno',
    body: 'One of the chairs in meeting room A has a broken wheel.',
  },
  {
    queue: 'Support',
    subject: 'Monitor flickers on desk 14',
    requestor: 'lena.vogel@example.com',
    status: 'new',
    owner: null,
    body: 'The left monitor on desk 14 flickers every few seconds.',
  },
  {
    queue: 'Accounts',
    subject: 'New starter account for Lena Vogel',
    requestor: 'hr@example.com',
    status: 'open',
    owner: 'alice',
    body: 'Lena Vogel starts on Monday in Support: she needs a login and an email address.',
  },
  {
    queue: 'Facilities',
    subject: 'Kitchen kettle needs replacing',
    requestor: 'marc.olsen@example.com',
    status: 'open',
    owner: 'chloe',
    body: 'The kettle in the floor 3 kitchen trips the breaker.',
  },
  {
    queue: 'Support',
    subject: 'Wi-Fi slow on floor 3',
    requestor: 'ines.garcia@example.com',
    status: 'new',
    owner: null,
    body: 'Since yesterday the Wi-Fi on floor 3 barely loads a page.',
  },
]

/** A Perl single-quoted string literal of `value`. */
function perlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/**
 * The seed script: run by `perl` with `RT_SITE_CONFIG` naming the instance's config. Dies (exit
 * status 255, the reason on stderr) when RT refuses any step.
 */
export function seedScript(): string {
  const staff = STAFF.map((s) => `[${s.map(perlString).join(', ')}]`).join(',\n  ')
  const queues = QUEUES.map((q) => `[${q.map(perlString).join(', ')}]`).join(',\n  ')
  const tickets = TICKETS.map(
    (t) =>
      `{ Queue => ${perlString(t.queue)}, Subject => ${perlString(t.subject)}, ` +
      `Requestor => ${perlString(t.requestor)}, Status => ${perlString(t.status)}, ` +
      `Owner => ${t.owner ? perlString(t.owner) : 'undef'}, Body => ${perlString(t.body)} }`,
  ).join(',\n  ')
  return `use strict;
use warnings;
use lib '/usr/share/request-tracker5/lib';
use RT;
use MIME::Entity;
RT::LoadConfig();
RT::Init();
my $sys = RT->SystemUser;
sub must { my ($ok, $msg) = @_; die "seed: $msg\\n" unless $ok; return $ok }

my $root = RT::User->new($sys);
$root->Load('root');
must($root->SetPassword(${perlString(ROOT.password)}));

# Staff may see, work on and own every queue's tickets: the owner lists of the ticket pages
# offer only users who hold OwnTicket.
my $group = RT::Group->new($sys);
must($group->CreateUserDefinedGroup(Name => 'Helpdesk', Description => 'First-line support staff'));
for my $right (qw(SeeQueue ShowTicket CreateTicket ReplyToTicket CommentOnTicket OwnTicket
                  ModifyTicket TakeTicket StealTicket Watch ShowTicketComments)) {
  must($group->PrincipalObj->GrantRight(Right => $right, Object => RT->System));
}
for my $u (
  ${staff}
) {
  my $user = RT::User->new($sys);
  must($user->Create(Name => $u->[0], RealName => $u->[1], EmailAddress => $u->[2],
                     Privileged => 1, Password => 'Helpdesk-Pass-1'));
  must($group->AddMember($user->PrincipalId));
}
for my $q (
  ${queues}
) {
  my $queue = RT::Queue->new($sys);
  must($queue->Create(Name => $q->[0], Description => $q->[1]));
}
for my $t (
  ${tickets}
) {
  my $ticket = RT::Ticket->new($sys);
  my $body = MIME::Entity->build(Type => 'text/plain', Charset => 'UTF-8', Data => [$t->{Body}]);
  my ($id, undef, $msg) = $ticket->Create(
    Queue => $t->{Queue}, Subject => $t->{Subject}, Requestor => [$t->{Requestor}],
    Status => $t->{Status}, ($t->{Owner} ? (Owner => $t->{Owner}) : ()), MIMEObj => $body);
  must($id, $msg);
}
print "seeded\\n";
`
}
