/**
 * The seed of a private Privoxy: its main config (own listen address, its own confdir and logdir,
 * the action file editor on) and the office proxy's `user.action`, written the same way on every
 * start. Debian's `default.action`, `match-all.action`, `default.filter`, `user.filter` and the
 * `templates/` are copied unchanged from /etc/privoxy into the temp confdir.
 */

/** Debian's Privoxy files the instance copies unchanged into its confdir. */
export const STOCK_FILES = [
  'match-all.action',
  'default.action',
  'default.filter',
  'user.filter',
  'templates',
] as const

/**
 * The action files in the order the config loads them: their index is the `f=` of the editor's
 * URLs and the `index=` of `show-status?file=actions`. The fourth is the instance's own (below).
 */
const ACTION_FILES = [
  'match-all.action',
  'default.action',
  'user.action',
  'web-interface.action',
] as const

/** Index of `user.action`, the file the workflows edit. */
export const USER_ACTION = 2

/**
 * The seeded `user.action`: an office's block lists, each section told apart by its block
 * message, an allowlist and two cookie sections. Every pattern is a `.test` host.
 */
export const USER_ACTION_TEXT = `######################################################################
#
#  File        :  user.action
#
#  Purpose     :  The office proxy's own rules
#
######################################################################

{{alias}}
+crunch-all-cookies = +crunch-incoming-cookies +crunch-outgoing-cookies
-crunch-all-cookies = -crunch-incoming-cookies -crunch-outgoing-cookies
 allow-all-cookies  = -crunch-all-cookies -session-cookies-only -filter{content-cookies}
+block-as-image     = +block{Blocked image request.} +handle-as-image

{ +block{Tracking and ad servers.} }
ads.bannerfarm.test
.doubleclick-cdn.test
metrics.shopfront.test/pixel
beacon.statsnow.test

{ +block{Social media widgets.} +handle-as-image }
widgets.socialbutton.test
.share-this.test/buttons

{ +block{Crypto miners.} }
.coinhive-clone.test
miner.webmining.test

{ +block{Survey popups.} }
.surveyhero-popups.test

{ +block{Fingerprinting scripts.} }
fp.canvasprint.test
.deviceid-collect.test

{ +block{Malware hosts.} }
.dropper-payloads.test
update.fakeflash.test

{ +block{Cookie consent banners.} }
.consentwall.test
cmp.cookiebar.test

{ -block }
.intranet.corp.test
wiki.corp.test
build.corp.test:8080
git.corp.test
jira.corp.test

{ allow-all-cookies }
.bank-online.test
mail.corp.test

{ +crunch-all-cookies }
.adnetwork-sync.test
`

/**
 * The instance's own action file: requests that name Privoxy's own address as their host get
 * the client-header filter below, which makes them requests for its web interface.
 */
export function webInterfaceAction(port: number): string {
  return `# Serves Privoxy's web interface at its own listen address (see test/apps/privoxy/NOTES.md).
{ +client-header-filter{web-interface-host} }
127.0.0.1:${port}
`
}

/** The filter that rewrites `Host: 127.0.0.1:<port>` to the web interface's host. */
export function webInterfaceFilter(port: number): string {
  return `CLIENT-HEADER-FILTER: web-interface-host Requests for Privoxy's own address go to its web interface
s@^Host: 127\\.0\\.0\\.1:${port}$@Host: config.privoxy.org@i
`
}

/** The main config file of an instance in `dir`, listening on 127.0.0.1:`port`. */
export function privoxyConfig(dir: string, port: number): string {
  return `# Sitecall corpus: a private Privoxy (see test/apps/privoxy/NOTES.md)
confdir ${dir}/conf
templdir ${dir}/conf/templates
logdir ${dir}/log
${ACTION_FILES.map((f) => `actionsfile ${f}`).join('\n')}
filterfile default.filter
filterfile user.filter
filterfile web-interface.filter
logfile logfile
debug 1
debug 1024
debug 4096
debug 8192
listen-address 127.0.0.1:${port}
toggle 1
enable-remote-toggle 1
enable-edit-actions 1
enforce-blocks 0
accept-intercepted-requests 1
allow-cgi-request-crunching 0
trusted-cgi-referer http://127.0.0.1:${port}/
keep-alive-timeout 5
socket-timeout 60
`
}
