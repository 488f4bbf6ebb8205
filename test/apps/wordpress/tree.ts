/**
 * One instance's WordPress tree: Debian's /usr/share/wordpress, hard-linked, with its own
 * wp-config.php, a must-use plugin that keeps it offline, and an uploads dir.
 */
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DB } from './mariadb'
import { run } from './proc'

/** Debian's WordPress tree (apt `wordpress`). */
export const WORDPRESS_DIR = '/usr/share/wordpress'
/** The theme the seed switches to (apt `wordpress-theme-twentytwentyone`). */
export const THEME = 'twentytwentyone'
/** This app's PHP files: the router, the installer and the must-use plugin. */
export const PHP_DIR = join(dirname(fileURLToPath(import.meta.url)), 'php')

function wpConfig(origin: string, socket: string): string {
  const salts = ['AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE'].flatMap((k) => [
    `${k}_KEY`,
    `${k}_SALT`,
  ])
  // Fixed salts keep cookie names stable; WP_HOME/WP_SITEURL carry this instance's port, so the
  // database (copied from a template) never needs rewriting for it.
  return [
    '<?php',
    `define('DB_NAME', '${DB.name}');`,
    `define('DB_USER', '${DB.user}');`,
    `define('DB_PASSWORD', '${DB.password}');`,
    `define('DB_HOST', 'localhost:${socket}');`,
    "define('DB_CHARSET', 'utf8mb4');",
    "define('DB_COLLATE', '');",
    ...salts.map((name) => `define('${name}', 'sitecall-fixed-${name.toLowerCase()}');`),
    `define('WP_HOME', '${origin}');`,
    `define('WP_SITEURL', '${origin}');`,
    "define('WP_CONTENT_DIR', __DIR__ . '/wp-content');",
    "define('DISABLE_WP_CRON', true);",
    "define('AUTOMATIC_UPDATER_DISABLED', true);",
    "define('WP_AUTO_UPDATE_CORE', false);",
    "define('DISALLOW_FILE_MODS', true);",
    "define('WP_HTTP_BLOCK_EXTERNAL', true);",
    "$table_prefix = 'wp_';",
    "if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');",
    "require_once ABSPATH . 'wp-settings.php';",
    '',
  ].join('\n')
}

/** Lays out a WordPress tree in `www` for the site at `origin` using the database at `socket`. */
export async function makeTree(www: string, origin: string, socket: string): Promise<void> {
  // Hard links make the 60 MB tree a sub-second copy. WordPress never rewrites its own files
  // here (DISALLOW_FILE_MODS, no updater); the files written into the tree are unlinked first so
  // Debian's originals are never written through. Another file system cannot hold hard links:
  // then a real copy.
  await run('cp', ['-al', WORDPRESS_DIR, www]).catch(async () => {
    await rm(www, { recursive: true, force: true })
    await run('cp', ['-a', WORDPRESS_DIR, www])
  })
  // Debian's .htaccess is a symlink into /etc; PHP's server ignores it anyway.
  await rm(join(www, '.htaccess'), { force: true })
  await rm(join(www, 'wp-config.php'))
  await writeFile(join(www, 'wp-config.php'), wpConfig(origin, socket))
  await mkdir(join(www, 'wp-content/mu-plugins'), { recursive: true })
  await mkdir(join(www, 'wp-content/uploads'), { recursive: true })
  await copyFile(join(PHP_DIR, 'sitecall.php'), join(www, 'wp-content/mu-plugins/sitecall.php'))
}
