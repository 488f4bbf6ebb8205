/**
 * The seed of a Tomcat instance: a fresh CATALINA_BASE written for every start (server.xml,
 * tomcat-users.xml, the manager and host-manager contexts, small exploded web apps with fixed
 * names), plus what `server.ts` does through Tomcat's own interfaces once it answers: stop three
 * apps (the Manager's text API) and open idle sessions of fixed ages in three apps (one JSP).
 */
import { crc32 } from 'node:zlib'

/** The person: manager-gui (Manager) and admin-gui (Host Manager), HTTP Basic. */
export const USER = { name: 'tomcat-admin', password: 'Catalina-ops-2024' } as const

/**
 * The account the answer keys read state with (the text APIs of both apps, `manager-script` and
 * `admin-script`), never the person's: Tomcat keeps the script roles apart from the GUI ones.
 */
export const CHECKER = { name: 'checker', password: 'Script-reader-77' } as const

/** One seeded web app of the `localhost` host (an exploded dir under `webapps/`). */
export interface SeedApp {
  /** Context path, `/inventory`. */
  path: string
  /** The web.xml `<display-name>` (the Manager's "Display Name" column). */
  display: string
  /** Stopped right after the start (the Manager lists it `running: false`). */
  stopped?: boolean
  /** Opens idle sessions of {@link SESSION_AGES_MIN} in this app at the start. */
  sessions?: boolean
}

/** The web apps of `localhost`, besides ROOT, manager and host-manager. */
export const APPS: SeedApp[] = [
  { path: '/inventory', display: 'Inventory Service' },
  { path: '/billing', display: 'Billing Portal' },
  { path: '/reports', display: 'Quarterly Reports' },
  { path: '/helpdesk', display: 'Helpdesk Tickets' },
  { path: '/wiki', display: 'Team Wiki' },
  { path: '/timesheets', display: 'Timesheets' },
  { path: '/payroll', display: 'Payroll Export' },
  { path: '/sandbox', display: 'Sandbox' },
  { path: '/demo', display: 'Demo Storefront' },
  { path: '/shop', display: 'Web Shop', sessions: true },
  { path: '/crm', display: 'Customer CRM', sessions: true },
  { path: '/portal', display: 'Employee Portal', sessions: true },
  { path: '/legacy-portal', display: 'Legacy Portal', stopped: true },
  { path: '/archive', display: 'Document Archive', stopped: true },
  { path: '/old-billing', display: 'Old Billing (2019)', stopped: true },
]

/**
 * How long ago (minutes) each seeded session of a session app was last used. Tomcat expires
 * sessions idle at least N minutes; these ages keep every threshold the workflows use (60, 150,
 * 300) far from any age, so the expected count holds for an hour after the start.
 */
const SESSION_AGES_MIN = [0, 90, 200, 400, 800] as const

/** Sessions of a seeded session app that outlive "expire idle ≥ `minutes`". */
export function sessionsLeftAfter(minutes: number): number {
  return SESSION_AGES_MIN.filter((age) => age < minutes).length
}

/** The virtual hosts server.xml declares besides `localhost` (Host Manager lists them). */
const HOSTS = [
  'intranet.example.test',
  'legacy.example.test',
  'blog.example.test',
  'docs.example.test',
] as const

/** The text of every file of a fresh CATALINA_BASE, by path under it (dirs are implied). */
export function baseFiles(port: number): Record<string, string> {
  const files: Record<string, string> = {
    'conf/server.xml': serverXml(port),
    'conf/tomcat-users.xml': usersXml(),
    'conf/context.xml': CONTEXT_XML,
    'conf/Catalina/localhost/manager.xml': adminContext('manager'),
    'conf/Catalina/localhost/host-manager.xml': adminContext('host-manager'),
    'webapps/ROOT/index.html': ROOT_INDEX,
    'webapps/ROOT/WEB-INF/web.xml': webXml('Welcome'),
    [`webapps/ROOT/${SESSION_SEED_JSP}`]: sessionSeedJsp(),
  }
  for (const app of APPS) {
    const dir = `webapps/${app.path.slice(1)}`
    files[`${dir}/WEB-INF/web.xml`] = webXml(app.display)
    files[`${dir}/index.html`] = appIndex(app.display)
  }
  for (const host of HOSTS) files[`hosts/${host}/.keep`] = ''
  return files
}

/**
 * server.xml: no shutdown port, one HTTP connector on 127.0.0.1, the user database from
 * `conf/tomcat-users.xml` (read only: nothing writes it back), `localhost` with autoDeploy off
 * (the app list changes only through the Manager), and the seeded virtual hosts.
 */
function serverXml(port: number): string {
  const hosts = HOSTS.map(
    (h) => `      <Host name="${h}" appBase="hosts/${h}" unpackWARs="true" autoDeploy="false"/>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <GlobalNamingResources>
    <Resource name="UserDatabase" auth="Container" type="org.apache.catalina.UserDatabase"
      factory="org.apache.catalina.users.MemoryUserDatabaseFactory"
      pathname="conf/tomcat-users.xml" readonly="true"/>
  </GlobalNamingResources>
  <Service name="Catalina">
    <Connector port="${port}" address="127.0.0.1" protocol="HTTP/1.1" connectionTimeout="20000"
      maxParameterCount="1000"/>
    <Engine name="Catalina" defaultHost="localhost">
      <Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/>
      <Host name="localhost" appBase="webapps" unpackWARs="true" autoDeploy="false"/>
${hosts.join('\n')}
    </Engine>
  </Service>
</Server>
`
}

function usersXml(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">
  <role rolename="manager-gui"/>
  <role rolename="admin-gui"/>
  <role rolename="manager-script"/>
  <role rolename="admin-script"/>
  <user username="${USER.name}" password="${USER.password}" roles="manager-gui,admin-gui"/>
  <user username="${CHECKER.name}" password="${CHECKER.password}" roles="manager-script,admin-script"/>
</tomcat-users>
`
}

/**
 * The default context of every app: sessions are not saved on stop or reload (`pathname=""`), so
 * nothing carries over between starts, and kept in cookies only (see NOTES.md: without it the
 * first page of a session rewrites every link with `;jsessionid=`).
 */
const CONTEXT_XML = `<?xml version="1.0" encoding="UTF-8"?>
<Context>
  <WatchedResource>WEB-INF/web.xml</WatchedResource>
  <Manager pathname=""/>
  <CookieProcessor className="org.apache.tomcat.util.http.Rfc6265CookieProcessor"/>
</Context>
`

/** The context file Debian's tomcat10-admin installs for `name`, pointing at its files. */
function adminContext(name: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Context path="/${name}" docBase="/usr/share/tomcat10-admin/${name}" antiResourceLocking="false" privileged="true"/>
`
}

/** A minimal Servlet 6 web.xml with a display name, cookie-only session tracking. */
function webXml(display: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <display-name>${display}</display-name>
  <session-config>
    <tracking-mode>COOKIE</tracking-mode>
  </session-config>
</web-app>
`
}

function appIndex(display: string): string {
  return `<!doctype html>
<html><head><title>${display}</title></head><body><h1>${display}</h1></body></html>
`
}

/** The start page every recording opens: the server's front page with its two admin links. */
const ROOT_INDEX = `<!doctype html>
<html><head><title>app01 (Apache Tomcat)</title></head>
<body>
<h1>app01: Apache Tomcat</h1>
<p>Administration:</p>
<ul>
  <li><a href="/manager/html">Manager App</a></li>
  <li><a href="/host-manager/html">Host Manager</a></li>
</ul>
</body></html>
`

/** The one-shot JSP of ROOT that opens the seeded sessions; server.ts calls it, then deletes it. */
export const SESSION_SEED_JSP = 'seed-sessions.jsp'

/**
 * A JSP that opens, in each session app, one session per {@link SESSION_AGES_MIN} entry, last used
 * that many minutes ago (Tomcat has no API to open a session that looks idle). It reaches each
 * app's session manager through the Catalina objects behind its own request (reflection: the
 * facade's session, its manager, the host, the other contexts), makes sessions that no request
 * touches, sets their access times back, and gives them a day's timeout so the background
 * expiry leaves them alone.
 */
function sessionSeedJsp(): string {
  const paths = APPS.filter((a) => a.sessions).map((a) => `"${a.path}"`)
  return `<%@ page import="java.lang.reflect.*" session="false" contentType="text/plain" %><%!
  static Object call(Object o, String name, Class<?>[] types, Object... args) throws Exception {
    return o.getClass().getMethod(name, types).invoke(o, args);
  }
%><%
  HttpSession own = request.getSession(true);
  Field inner = own.getClass().getDeclaredField("session");
  inner.setAccessible(true);
  Object standard = inner.get(own);
  Object host = call(call(call(standard, "getManager", new Class<?>[0]), "getContext", new Class<?>[0]), "getParent", new Class<?>[0]);
  long[] ages = {${SESSION_AGES_MIN.join(', ')}};
  long now = System.currentTimeMillis();
  for (String path : new String[]{${paths.join(', ')}}) {
    Object context = call(host, "findChild", new Class<?>[]{String.class}, path);
    Object manager = call(context, "getManager", new Class<?>[0]);
    for (long age : ages) {
      Object s = call(manager, "createSession", new Class<?>[]{String.class}, (Object) null);
      call(s, "setMaxInactiveInterval", new Class<?>[]{int.class}, 86400);
      Class<?> c = s.getClass();
      while (!c.getName().equals("org.apache.catalina.session.StandardSession")) c = c.getSuperclass();
      for (String name : new String[]{"creationTime", "lastAccessedTime", "thisAccessedTime"}) {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        f.setLong(s, now - age * 60000L);
      }
    }
  }
  own.invalidate();
  out.print("seeded");
%>
`
}

/** The WAR the person uploads (`guestbook.war`): one page saying what it is. */
export const UPLOAD_WAR = war('Guestbook')
/** The file name the person picks. */
export const UPLOAD_NAME = 'guestbook.war'
/** The WAR a tool uploads instead (the working check's file). */
export const OTHER_WAR = war('Feedback Form')

/** The page text each uploaded WAR serves at its context root. */
export const WAR_MARKERS = ['Guestbook', 'Feedback Form'] as const

/** A WAR (a zip of stored entries) holding WEB-INF/web.xml and an index page titled `display`. */
function war(display: string): Uint8Array {
  return zip({ 'WEB-INF/web.xml': webXml(display), 'index.html': appIndex(display) })
}

/**
 * A zip archive of `files`, every entry stored (no compression), with a fixed date, so the same
 * files always give the same bytes. Enough for Tomcat, which unpacks it with java.util.zip.
 */
function zip(files: Record<string, string>): Uint8Array {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  // 2024-01-01 00:00 in DOS time/date fields.
  const dosTime = 0
  const dosDate = ((2024 - 1980) << 9) | (1 << 5) | 1
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text, 'utf8')
    const nameBytes = Buffer.from(name, 'utf8')
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(10, 4)
    local.writeUInt16LE(0, 6)
    local.writeUInt16LE(0, 8)
    local.writeUInt16LE(dosTime, 10)
    local.writeUInt16LE(dosDate, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    local.writeUInt16LE(0, 28)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(10, 6)
    central.writeUInt16LE(0, 8)
    central.writeUInt16LE(0, 10)
    central.writeUInt16LE(dosTime, 12)
    central.writeUInt16LE(dosDate, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, data)
    centrals.push(central, nameBytes)
    offset += local.length + nameBytes.length + data.length
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(files).length, 8)
  end.writeUInt16LE(Object.keys(files).length, 10)
  end.writeUInt32LE(centralSize, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, ...centrals, end]))
}
