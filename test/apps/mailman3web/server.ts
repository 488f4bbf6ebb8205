/**
 * Starts a private Mailman 3 suite: Mailman core (Debian's `mailman3` 3.3.8) and its Django web
 * UI, Postorius (Debian's `mailman3-web` with `python3-django-postorius` 1.3.8), both from one temp
 * dir. Core gets its own `mailman.cfg`: every path under the temp dir, SQLite, its REST API on a
 * free 127.0.0.1 port with an admin user of its own, the null MTA (no aliases written, no
 * Postfix), an SMTP port nothing listens on, and only the runners the web UI needs (`rest`, and
 * `in`/`pipeline` that file posted messages). Its `master` runs in the foreground as the leader
 * of its own process group, so stopping the group stops every runner it forked (`mailman start`
 * would detach it into a session of its own). The web side is a small settings module and URL
 * conf of our own (Debian's `/usr/share/mailman3-web/settings.py` pulls its secrets and database
 * from /etc/mailman3): Postorius, django-mailman3 and allauth over SQLite in the temp dir, served
 * by Django's development server with `--insecure` for the static files. HyperKitty (the archive
 * UI) is left out: its pages need a Sass compiler and an archiver feed, and the workflows are a
 * list admin's, all in Postorius.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  freePort,
  instanceStopper,
  killGroup,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
  type ServerProcess,
} from '../childProcess'
import { ADMIN, CORE_API, seedCore } from './seed'

/** Debian's Python (the pyenv one on PATH has neither Mailman nor Django). */
const PYTHON = '/usr/bin/python3'
/** Mailman core's `master` watcher (Debian's `mailman3`). */
const MASTER = '/usr/lib/mailman3/bin/master'
const POSTORIUS = '/usr/lib/python3/dist-packages/postorius/urls.py'
const ALLAUTH = '/usr/lib/python3/dist-packages/allauth/urls.py'

/** A running Mailman core with Postorius in front of it. */
export interface MailmanServer {
  /** Postorius's origin. */
  origin: string
  /** Core's REST API root (`http://127.0.0.1:PORT/3.1`). */
  api: string
  dir: string
  close(): Promise<void>
}

/** Why the Mailman suite cannot run here (naming the apt packages), or null. */
export function mailmanUnavailable(): string | null {
  const install = 'apt-get install --no-install-recommends mailman3 mailman3-web'
  if (!existsSync(MASTER)) return `Mailman core is not installed: ${install}`
  if (!existsSync(POSTORIUS) || !existsSync(ALLAUTH))
    return `Postorius (mailman3-web) is not installed: ${install}`
  if (!existsSync(PYTHON)) return `Debian's python3 is missing: ${install}`
  return null
}

/**
 * Core's configuration, layered by Mailman over its built-in schema: the layout `sitecall` puts
 * every path in `var`. The runners not started are those for mail the instance never gets or
 * sends (LMTP from an MTA, NNTP, bounces, digests, retries, the outgoing queues).
 */
function coreConfig(varDir: string, ports: { rest: number; smtp: number; lmtp: number }): string {
  const off = [
    'lmtp',
    'nntp',
    'bounces',
    'digest',
    'retry',
    'task',
    'out',
    'virgin',
    'archive',
    'command',
  ]
  return `[mailman]
site_owner: postmaster@example.org
layout: sitecall

[paths.sitecall]
var_dir: ${varDir}
bin_dir: /usr/lib/mailman3/bin
pid_file: ${join(varDir, 'master.pid')}

[database]
class: mailman.database.sqlite.SQLiteDatabase
url: sqlite:///${join(varDir, 'data', 'mailman.db')}

[webservice]
hostname: 127.0.0.1
port: ${ports.rest}
admin_user: ${CORE_API.user}
admin_pass: ${CORE_API.password}

[mta]
incoming: mailman.mta.null.NullMTA
outgoing: mailman.mta.deliver.deliver
smtp_host: 127.0.0.1
smtp_port: ${ports.smtp}
lmtp_host: 127.0.0.1
lmtp_port: ${ports.lmtp}

${off.map((r) => `[runner.${r}]\nstart: no\n`).join('\n')}`
}

/**
 * The Django settings of the web UI: the apps and middleware Postorius needs, SQLite and mail
 * files in the instance dir, core's REST API, allauth's login form without e-mail verification
 * (the seeded admin's address could never be verified offline). Avatars point at a path of the
 * site itself, since gravatar.com is not reachable.
 */
const DJANGO_SETTINGS = `import os
_dir = os.environ['SITECALL_MAILMAN_DIR']
SECRET_KEY = 'sitecall-mailman3web-test-instance'
DEBUG = False
ALLOWED_HOSTS = ['127.0.0.1', 'localhost']
SITE_ID = 1
MAILMAN_REST_API_URL = os.environ['SITECALL_MAILMAN_REST']
MAILMAN_REST_API_USER = os.environ['SITECALL_MAILMAN_REST_USER']
MAILMAN_REST_API_PASS = os.environ['SITECALL_MAILMAN_REST_PASS']
MAILMAN_ARCHIVER_KEY = 'sitecall-archiver'
MAILMAN_ARCHIVER_FROM = ('127.0.0.1',)
INSTALLED_APPS = (
    'postorius',
    'django_mailman3',
    'django.contrib.admin',
    'django.contrib.auth',
    'django.contrib.contenttypes',
    'django.contrib.sessions',
    'django.contrib.sites',
    'django.contrib.messages',
    'django.contrib.staticfiles',
    'rest_framework',
    'django_gravatar',
    'allauth',
    'allauth.account',
    'allauth.socialaccount',
)
MIDDLEWARE = (
    'django.contrib.sessions.middleware.SessionMiddleware',
    'django.middleware.common.CommonMiddleware',
    'django.middleware.csrf.CsrfViewMiddleware',
    'django.middleware.locale.LocaleMiddleware',
    'django.contrib.auth.middleware.AuthenticationMiddleware',
    'django.contrib.messages.middleware.MessageMiddleware',
    'django.middleware.clickjacking.XFrameOptionsMiddleware',
    'django.middleware.security.SecurityMiddleware',
    'django_mailman3.middleware.TimezoneMiddleware',
    'postorius.middleware.PostoriusMiddleware',
)
ROOT_URLCONF = 'sitecall_mailman_urls'
TEMPLATES = [{
    'BACKEND': 'django.template.backends.django.DjangoTemplates',
    'DIRS': [],
    'APP_DIRS': True,
    'OPTIONS': {'context_processors': [
        'django.template.context_processors.debug',
        'django.template.context_processors.i18n',
        'django.template.context_processors.media',
        'django.template.context_processors.static',
        'django.template.context_processors.tz',
        'django.template.context_processors.csrf',
        'django.template.context_processors.request',
        'django.contrib.auth.context_processors.auth',
        'django.contrib.messages.context_processors.messages',
        'django_mailman3.context_processors.common',
        'postorius.context_processors.postorius',
    ]},
}]
DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3',
                         'NAME': os.path.join(_dir, 'web.db')}}
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
LANGUAGE_CODE = 'en-us'
TIME_ZONE = 'UTC'
USE_I18N = True
USE_L10N = True
USE_TZ = True
STATIC_URL = '/static/'
LOGIN_URL = 'account_login'
LOGIN_REDIRECT_URL = 'list_index'
LOGOUT_URL = 'account_logout'
DEFAULT_FROM_EMAIL = 'postorius@example.org'
SERVER_EMAIL = 'root@example.org'
EMAIL_BACKEND = 'django.core.mail.backends.filebased.EmailBackend'
EMAIL_FILE_PATH = os.path.join(_dir, 'emails')
from django.contrib.messages import constants as messages
MESSAGE_TAGS = {messages.ERROR: 'danger'}
AUTHENTICATION_BACKENDS = (
    'django.contrib.auth.backends.ModelBackend',
    'allauth.account.auth_backends.AuthenticationBackend',
)
ACCOUNT_AUTHENTICATION_METHOD = 'username_email'
ACCOUNT_EMAIL_REQUIRED = True
ACCOUNT_EMAIL_VERIFICATION = 'none'
ACCOUNT_DEFAULT_HTTP_PROTOCOL = 'http'
ACCOUNT_UNIQUE_EMAIL = True
GRAVATAR_URL = '/static/'
GRAVATAR_SECURE_URL = '/static/'
GRAVATAR_DEFAULT_IMAGE = 'mm'
POSTORIUS_TEMPLATE_BASE_URL = os.environ['SITECALL_MAILMAN_WEB']
SILENCED_SYSTEM_CHECKS = ['models.W042']
`

/** The web UI's URLs: Debian's `urls.py` without HyperKitty. */
const DJANGO_URLS = `from django.contrib import admin
from django.urls import include, path, reverse_lazy
from django.views.generic import RedirectView
urlpatterns = [
    path('', RedirectView.as_view(url=reverse_lazy('list_index'))),
    path('postorius/', include('postorius.urls')),
    path('', include('django_mailman3.urls')),
    path('accounts/', include('allauth.urls')),
    path('admin/', admin.site.urls),
]
`

/**
 * Builds, seeds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * stopping and removing everything, when a step fails.
 */
export async function startMailmanServer(lifetimeMs: number): Promise<MailmanServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-mailman3web-'))
  let core: ServerProcess | null = null
  const forgets: Array<() => void> = []
  const stopper = instanceStopper(async () => {
    await killGroup(core?.child, { graceMs: 5000 })
    for (const forget of forgets) forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    const varDir = join(dir, 'core')
    const webDir = join(dir, 'web')
    mkdirSync(varDir)
    mkdirSync(join(webDir, 'emails'), { recursive: true })
    const [rest, smtp, lmtp, web] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ]
    const cfg = join(varDir, 'mailman.cfg')
    writeFileSync(cfg, coreConfig(varDir, { rest, smtp, lmtp }))
    core = spawnServer(PYTHON, [MASTER, '-C', cfg], {
      cwd: varDir,
      env: { ...process.env, MAILMAN_VAR_DIR: varDir, PYTHONDONTWRITEBYTECODE: '1' },
      output: { stderr: true },
    })
    forgets.push(killOnExit(core.child))
    const api = `http://127.0.0.1:${rest}/3.1`

    const origin = `http://127.0.0.1:${web}`
    writeFileSync(join(webDir, 'sitecall_mailman_settings.py'), DJANGO_SETTINGS)
    writeFileSync(join(webDir, 'sitecall_mailman_urls.py'), DJANGO_URLS)
    const env = {
      ...process.env,
      SITECALL_MAILMAN_DIR: webDir,
      SITECALL_MAILMAN_REST: `http://127.0.0.1:${rest}`,
      SITECALL_MAILMAN_REST_USER: CORE_API.user,
      SITECALL_MAILMAN_REST_PASS: CORE_API.password,
      SITECALL_MAILMAN_WEB: origin,
      PYTHONPATH: webDir,
      PYTHONDONTWRITEBYTECODE: '1',
      DJANGO_SETTINGS_MODULE: 'sitecall_mailman_settings',
    }
    const django = (args: string[], extra: Record<string, string> = {}) =>
      promisify(execFile)(PYTHON, ['-m', 'django', ...args], {
        cwd: webDir,
        env: { ...env, ...extra },
        timeout: 120_000,
      })
    // The web database is built while core starts: neither needs the other yet.
    const webReady = (async () => {
      await django(['migrate', '--noinput'])
      await django(
        ['createsuperuser', '--noinput', '--username', ADMIN.name, '--email', ADMIN.email],
        { DJANGO_SUPERUSER_PASSWORD: ADMIN.password },
      )
    })()
    const coreReady = waitForHttp(`${api}/system/versions`, core.child, {
      name: 'Mailman core (master)',
      timeoutMs: 90_000,
      requestTimeoutMs: 10_000,
      // Unauthenticated, the API answers 401 once it listens.
      ready: (res) => res.status === 401 || res.status === 200,
    })
    await Promise.all([webReady, coreReady])
    await seedCore(api)

    const server = spawnServer(
      PYTHON,
      ['-m', 'django', 'runserver', `127.0.0.1:${web}`, '--noreload', '--insecure'],
      { cwd: webDir, env, output: { stderr: true } },
    )
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    await waitForHttp(`${origin}/accounts/login/`, server.child, {
      name: 'Postorius (django runserver)',
      timeoutMs: 30_000,
      requestTimeoutMs: 10_000,
      ready: (res) => res.status === 200,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, api, dir, close: stopper.stop }
  })
}
