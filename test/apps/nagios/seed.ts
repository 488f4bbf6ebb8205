/**
 * The seed of the Nagios instance: every file of one start, written fresh into its temp dir. Seven
 * hosts with fixed names, each with services whose checks give a fixed state and output (a
 * script that prints its arguments and exits with the state's code), and a state retention file
 * that says every check already ran (so the pages show final states at once and no check runs by
 * itself) and holds four comments with fixed ids.
 */
import { createHash } from 'node:crypto'

/** The one account (HTTP Basic, the htpasswd file); the CGIs grant it everything. */
export const USER = { name: 'ops', password: 'Watch-the-hosts-4' } as const

/** The realm Apache's 401 names. */
const REALM = 'Nagios Access'

/** Where the CGIs answer (Debian's ScriptAlias) and where the HTML pages live (its Alias). */
export const CGI = '/cgi-bin/nagios4'
export const HTML = '/nagios4'

/** The public landing page every recording starts on (the one page without the Basic prompt). */
export const LANDING_PATH = '/'

/** Nagios' state codes: 0-3 for services, 0 UP / 1 DOWN for hosts. */
type ServiceState = 0 | 1 | 2 | 3
const STATE_NAME = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'] as const

/** One seeded service: its name, the state its check gives and the check's output. */
interface SeedService {
  name: string
  state: ServiceState
  output: string
}

/** One seeded host. */
export interface SeedHost {
  name: string
  alias: string
  address: string
  down?: boolean
  services: SeedService[]
}

const ssh = (host: string): SeedService => ({
  name: 'SSH',
  state: 0,
  output: `SSH OK - OpenSSH_9.2p1 Debian-2 on ${host}, protocol 2.0`,
})
const disk = (host: string, state: ServiceState, used: number): SeedService => ({
  name: 'Disk Space',
  state,
  output: `DISK ${STATE_NAME[state]} - free space: / ${100 - used}% free on ${host}, ${used}% used`,
})

/** The hosts, in the order the pages list them (alphabetical, as Nagios sorts them). */
export const HOSTS: SeedHost[] = [
  {
    name: 'db01',
    alias: 'Primary database',
    address: '10.0.2.11',
    services: [
      disk('db01', 2, 97),
      { name: 'PostgreSQL', state: 0, output: 'POSTGRES OK - 42 connections on db01' },
      ssh('db01'),
    ],
  },
  {
    name: 'db02',
    alias: 'Replica database',
    address: '10.0.2.12',
    services: [
      disk('db02', 0, 41),
      {
        name: 'PostgreSQL',
        state: 1,
        output: 'POSTGRES WARNING - replication lag 95 s on db02',
      },
      ssh('db02'),
    ],
  },
  {
    name: 'mail01',
    alias: 'Mail relay',
    address: '10.0.3.11',
    services: [
      disk('mail01', 1, 88),
      { name: 'Mail Queue', state: 1, output: 'QUEUE WARNING - 214 messages queued on mail01' },
      { name: 'SMTP', state: 2, output: 'SMTP CRITICAL - connection refused on mail01 port 25' },
      ssh('mail01'),
    ],
  },
  {
    name: 'nas01',
    alias: 'File storage',
    address: '10.0.4.11',
    down: true,
    services: [{ name: 'NFS', state: 2, output: 'NFS CRITICAL - no answer from nas01' }],
  },
  {
    name: 'web01',
    alias: 'Web server 1',
    address: '10.0.1.11',
    services: [
      disk('web01', 1, 84),
      { name: 'HTTP', state: 0, output: 'HTTP OK - HTTP/1.1 200 OK in 0.031 s on web01' },
      ssh('web01'),
    ],
  },
  {
    name: 'web02',
    alias: 'Web server 2',
    address: '10.0.1.12',
    services: [
      disk('web02', 0, 52),
      {
        name: 'HTTP',
        state: 2,
        output: 'HTTP CRITICAL - HTTP/1.1 503 Service Unavailable on web02',
      },
      ssh('web02'),
    ],
  },
  {
    name: 'web03',
    alias: 'Web server 3',
    address: '10.0.1.13',
    services: [
      disk('web03', 2, 96),
      { name: 'HTTP', state: 0, output: 'HTTP OK - HTTP/1.1 200 OK in 0.027 s on web03' },
      ssh('web03'),
    ],
  },
]

/** The seeded host, or a thrown error naming it. */
export function seededHost(name: string): SeedHost {
  const host = HOSTS.find((h) => h.name === name)
  if (!host) throw new Error(`no seeded host ${name}`)
  return host
}

/** One seeded comment: fixed id, on a host or (with `service`) on a service. */
export interface SeedComment {
  id: number
  host: string
  service?: string
  text: string
}

/** The seeded comments, ids 1-4, as the Comments page lists them. */
export const COMMENTS: SeedComment[] = [
  { id: 1, host: 'mail01', text: 'Waiting for the vendor to replace the relay disk' },
  { id: 2, host: 'db02', text: 'Replica rebuilt from the backup of Monday' },
  { id: 3, host: 'web03', text: 'Old log rotation job still enabled here' },
  { id: 4, host: 'nas01', text: 'Powered off for the office move' },
]

/** The seeded comment whose text is `text`. */
export function seededComment(text: string): SeedComment {
  const comment = COMMENTS.find((c) => c.text === text)
  if (!comment) throw new Error(`no seeded comment "${text}"`)
  return comment
}

/** The file names of one instance, all in its temp dir. */
export interface Layout {
  dir: string
  port: number
}

const at = (l: Layout, name: string): string => `${l.dir}/${name}`

/**
 * The check every seeded host and service uses: prints its arguments after the first and exits
 * with the first, so a check gives the same state and output every time it runs (a forced
 * re-check changes the time of the last check, nothing else).
 */
export function fixedCheckScript(): string {
  return '#!/bin/sh\ncode="$1"\nshift\necho "$*"\nexit "$code"\n'
}

/** Object definitions: commands, the 24x7 period, the contact, the hosts and services. */
export function objectsConfig(l: Layout): string {
  const blocks: string[] = [
    `define command {\n  command_name fixed_state\n  command_line /bin/sh ${at(l, 'fixed.sh')} $ARG1$ $ARG2$\n}`,
    'define command {\n  command_name notify_nobody\n  command_line /bin/true\n}',
    `define timeperiod {\n  timeperiod_name 24x7\n  alias Always\n${[
      'sunday',
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
    ]
      .map((d) => `  ${d} 00:00-24:00`)
      .join('\n')}\n}`,
    [
      'define contact {',
      `  contact_name ${USER.name}`,
      '  alias Operations',
      '  service_notification_period 24x7',
      '  host_notification_period 24x7',
      '  service_notification_options w,u,c,r',
      '  host_notification_options d,u,r',
      '  service_notification_commands notify_nobody',
      '  host_notification_commands notify_nobody',
      '}',
    ].join('\n'),
  ]
  const common = [
    '  max_check_attempts 1',
    // A day between checks: nothing runs by itself during a recording or a check.
    '  check_interval 1440',
    '  retry_interval 1440',
    '  check_period 24x7',
    `  contacts ${USER.name}`,
    '  notification_interval 0',
    '  notification_period 24x7',
  ]
  for (const host of HOSTS) {
    const state = host.down ? 2 : 0
    blocks.push(
      [
        'define host {',
        `  host_name ${host.name}`,
        `  alias ${host.alias}`,
        `  address ${host.address}`,
        `  check_command fixed_state!${state}!${hostOutput(host)}`,
        ...common,
        '}',
      ].join('\n'),
    )
    for (const s of host.services)
      blocks.push(
        [
          'define service {',
          `  host_name ${host.name}`,
          `  service_description ${s.name}`,
          `  check_command fixed_state!${s.state}!${s.output}`,
          ...common,
          '}',
        ].join('\n'),
      )
  }
  return `${blocks.join('\n\n')}\n`
}

/** The main config: only this instance's files, no syslog, no update check, statuses every 1 s. */
export function nagiosConfig(l: Layout): string {
  return [
    `log_file=${at(l, 'var/nagios.log')}`,
    `cfg_file=${at(l, 'objects.cfg')}`,
    `object_cache_file=${at(l, 'var/objects.cache')}`,
    `precached_object_file=${at(l, 'var/objects.precache')}`,
    `status_file=${at(l, 'var/status.dat')}`,
    'status_update_interval=1',
    'nagios_user=nobody',
    'nagios_group=nogroup',
    'check_external_commands=1',
    `command_file=${at(l, 'var/rw/nagios.cmd')}`,
    `query_socket=${at(l, 'var/rw/nagios.qh')}`,
    `lock_file=${at(l, 'var/nagios.pid')}`,
    `temp_file=${at(l, 'var/nagios.tmp')}`,
    `temp_path=${at(l, 'var')}`,
    `check_result_path=${at(l, 'var/checkresults')}`,
    'check_result_reaper_frequency=1',
    `state_retention_file=${at(l, 'var/retention.dat')}`,
    'retain_state_information=1',
    'use_retained_program_state=1',
    'use_retained_scheduling_info=1',
    'retention_update_interval=0',
    'use_syslog=0',
    'log_rotation_method=n',
    `log_archive_path=${at(l, 'var')}`,
    'check_for_updates=0',
    'bare_update_check=0',
    // No check runs by itself (states come from the retention file); a forced check still runs.
    'execute_service_checks=0',
    'execute_host_checks=0',
    'enable_notifications=1',
    'enable_flap_detection=0',
    'check_service_freshness=0',
    'check_host_freshness=0',
    'interval_length=60',
    'date_format=us',
    'illegal_object_name_chars=`~!$%^&*|\'"<>?,()=',
    'illegal_macro_output_chars=`~$&|\'"<>',
    '',
  ].join('\n')
}

/** The CGIs' config: Basic auth on, the one user allowed everything, the Debian URLs. */
export function cgiConfig(l: Layout): string {
  const all = [
    'system_information',
    'configuration_information',
    'system_commands',
    'all_services',
    'all_hosts',
    'all_service_commands',
    'all_host_commands',
  ]
  return [
    `main_config_file=${at(l, 'nagios.cfg')}`,
    `physical_html_path=${at(l, 'htdocs')}`,
    `url_html_path=${HTML}`,
    'show_context_help=0',
    'use_pending_states=1',
    'use_authentication=1',
    ...all.map((a) => `authorized_for_${a}=${USER.name}`),
    'refresh_rate=3600',
    'result_limit=100',
    'escape_html_tags=1',
    'action_url_target=_blank',
    'notes_url_target=_blank',
    'lock_author_names=1',
    'navbar_search_for_addresses=1',
    'navbar_search_for_aliases=1',
    // The CGIs' page tour loads a video from youtube.com when clicked: off (no internet here).
    'enable_page_tour=0',
    '',
  ].join('\n')
}

/**
 * The PHP pages' config (`htdocs/config.inc.php`, Debian's with this instance's paths): the
 * frames page, its menu and home page read the CGI config through it.
 */
export function phpConfig(l: Layout): string {
  return [
    '<?php',
    `$cfg['cgi_config_file']='${at(l, 'cgi.cfg')}';`,
    `$cfg['cgi_base_url']='${CGI}';`,
    `$cfg['main_config_file']='${at(l, 'nagios.cfg')}';`,
    `$cfg['status_file']='${at(l, 'var/status.dat')}';`,
    `$cfg['state_retention_file']='${at(l, 'var/retention.dat')}';`,
    "require_once(dirname(__FILE__).'/includes/utils.inc.php');",
    '?>',
    '',
  ].join('\n')
}

/** The htpasswd line of the user (`{SHA}`: base64 of SHA-1, which Apache's authn_file reads). */
export function htpasswd(): string {
  const hash = createHash('sha1').update(USER.password, 'utf8').digest('base64')
  return `${USER.name}:{SHA}${hash}\n`
}

/** The public landing page: what a company's monitoring box shows at `/`, a link to Nagios. */
export function landingPage(): string {
  return [
    '<!DOCTYPE html>',
    '<html><head><title>Monitoring</title></head><body>',
    '<h1>Monitoring</h1>',
    `<p><a href="${HTML}/">Nagios Core</a></p>`,
    '</body></html>',
    '',
  ].join('\n')
}

/**
 * Apache's config: prefork with a few children, the modules the pages need (CGI, PHP, Basic auth
 * from a file), Debian's URL layout for Nagios (`/nagios4` the HTML pages, `/cgi-bin/nagios4` the
 * CGIs, `/nagios4/stylesheets` Debian's stylesheets), everything under them behind the login,
 * and `NAGIOS_CGI_CONFIG` pointing the CGIs at this instance's `cgi.cfg`.
 */
export function httpdConfig(l: Layout): string {
  const mods = [
    'mpm_prefork',
    'authz_core',
    'authz_user',
    'authn_core',
    'authn_file',
    'auth_basic',
    'alias',
    'cgi',
    'env',
    'mime',
    'dir',
  ]
  return [
    `ServerRoot ${l.dir}`,
    'ServerName 127.0.0.1',
    `Listen 127.0.0.1:${l.port}`,
    `PidFile ${at(l, 'var/httpd.pid')}`,
    `ErrorLog ${at(l, 'var/httpd-error.log')}`,
    'LogLevel warn',
    ...mods.map((m) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`),
    'LoadModule php_module /usr/lib/apache2/modules/libphp8.2.so',
    'TypesConfig /etc/mime.types',
    'AddType application/x-httpd-php .php',
    '<FilesMatch "\\.php$">',
    '  SetHandler application/x-httpd-php',
    '</FilesMatch>',
    'StartServers 2',
    'MinSpareServers 2',
    'MaxSpareServers 4',
    'MaxRequestWorkers 8',
    'KeepAlive On',
    `DocumentRoot ${at(l, 'www')}`,
    'DirectoryIndex index.php index.html',
    `ScriptAlias ${CGI} /usr/lib/cgi-bin/nagios4`,
    `Alias ${HTML}/stylesheets /etc/nagios4/stylesheets`,
    `Alias ${HTML} ${at(l, 'htdocs')}`,
    `SetEnv NAGIOS_CGI_CONFIG ${at(l, 'cgi.cfg')}`,
    '<Directory />',
    '  Require all denied',
    '</Directory>',
    `<Directory ${at(l, 'www')}>`,
    '  Require all granted',
    '</Directory>',
    `<DirectoryMatch (${at(l, 'htdocs')}|/usr/lib/cgi-bin/nagios4|/etc/nagios4/stylesheets)>`,
    '  Options FollowSymLinks',
    '  AuthType Basic',
    `  AuthName "${REALM}"`,
    `  AuthUserFile ${at(l, 'htpasswd')}`,
    '  Require valid-user',
    '</DirectoryMatch>',
    '',
  ].join('\n')
}

/**
 * The state retention file Nagios reads at start: every host and service checked once an hour
 * before `now` (its seeded state, output and a next check a day later, so none runs by itself),
 * notifications on, nothing acknowledged, and the four comments with their fixed ids.
 */
export function retentionFile(now: number): string {
  const checked = now - 3600
  const out: string[] = [
    'info {',
    `created=${now}`,
    'version=4.4.6',
    'last_update_check=0',
    'update_available=0',
    'update_uid=0',
    'last_version=',
    'new_version=',
    '}',
    'program {',
    'modified_host_attributes=0',
    'modified_service_attributes=0',
    'enable_notifications=1',
    'active_service_checks_enabled=0',
    'passive_service_checks_enabled=1',
    'active_host_checks_enabled=0',
    'passive_host_checks_enabled=1',
    'enable_event_handlers=1',
    'obsess_over_services=0',
    'obsess_over_hosts=0',
    'check_service_freshness=0',
    'check_host_freshness=0',
    'enable_flap_detection=0',
    'process_performance_data=0',
    'global_host_event_handler=',
    'global_service_event_handler=',
    `next_comment_id=${COMMENTS.length + 1}`,
    'next_downtime_id=1',
    'next_event_id=1',
    'next_problem_id=1',
    'next_notification_id=1',
    '}',
  ]
  const timing = (state: number, okName: string, problemName: string) => [
    'has_been_checked=1',
    'check_execution_time=0.004',
    'check_latency=0.001',
    'check_type=0',
    `current_state=${state}`,
    `last_state=${state}`,
    `last_hard_state=${state}`,
    'current_attempt=1',
    'max_attempts=1',
    'check_interval=1440.000000',
    'retry_interval=1440.000000',
    'state_type=1',
    `last_state_change=${checked - 86_400}`,
    `last_hard_state_change=${checked - 86_400}`,
    `last_time_${okName}=${state === 0 ? checked : checked - 86_400}`,
    `last_time_${problemName}=${state === 0 ? 0 : checked}`,
    `last_check=${checked}`,
    `next_check=${now + 86_400}`,
    'check_options=0',
    'notifications_enabled=1',
    'problem_has_been_acknowledged=0',
    'acknowledgement_type=0',
    'active_checks_enabled=1',
    'passive_checks_enabled=1',
    'event_handler_enabled=1',
    'flap_detection_enabled=1',
    'process_performance_data=1',
    'obsess=1',
    'is_flapping=0',
    'percent_state_change=0.00',
    'long_plugin_output=',
    'performance_data=',
  ]
  for (const host of HOSTS) {
    const state = host.down ? 1 : 0
    out.push(
      'host {',
      `host_name=${host.name}`,
      'modified_attributes=0',
      `check_command=fixed_state!${state ? 2 : 0}!${hostOutput(host)}`,
      'check_period=24x7',
      'notification_period=24x7',
      'event_handler=',
      `plugin_output=${hostOutput(host)}`,
      ...timing(state, 'up', 'down'),
      '}',
    )
    for (const s of host.services)
      out.push(
        'service {',
        `host_name=${host.name}`,
        `service_description=${s.name}`,
        'modified_attributes=0',
        `check_command=fixed_state!${s.state}!${s.output}`,
        'check_period=24x7',
        'notification_period=24x7',
        'event_handler=',
        `plugin_output=${s.output}`,
        ...timing(
          s.state,
          'ok',
          s.state === 1 ? 'warning' : s.state === 3 ? 'unknown' : 'critical',
        ),
        '}',
      )
  }
  for (const c of COMMENTS)
    out.push(
      c.service ? 'servicecomment {' : 'hostcomment {',
      `host_name=${c.host}`,
      ...(c.service ? [`service_description=${c.service}`] : []),
      'entry_type=1',
      `comment_id=${c.id}`,
      'source=1',
      'persistent=1',
      `entry_time=${checked + c.id * 60}`,
      'expires=0',
      'expire_time=0',
      `author=${USER.name}`,
      `comment_data=${c.text}`,
      '}',
    )
  return `${out.join('\n')}\n`
}

/** The output of a host's check: a ping answer, or none for the host that is down. */
function hostOutput(host: SeedHost): string {
  return host.down
    ? `CRITICAL - Host Unreachable, no answer from ${host.address}`
    : 'PING OK - Packet loss = 0, RTA = 0.42 ms'
}
