/**
 * The LocalSettings.php of one private MediaWiki instance. Written by us rather than taken from
 * the installer, so every instance gets the same secret key (deterministic) and its own port,
 * data dir and upload dir.
 */

/** Where the Debian package puts MediaWiki's code. */
export const MEDIAWIKI_CODE = '/usr/share/mediawiki'

/** The wiki's name; the installer derives the project namespace `Sitecall_Wiki` from it. */
export const SITE_NAME = 'Sitecall Wiki'

/**
 * LocalSettings.php for an instance whose data lives in `dataDir` (`db/` for SQLite, `root/` for
 * the web root with its `images/` upload dir) and that answers on `server` (`http://127.0.0.1:P`).
 */
export function localSettings(dataDir: string, server: string): string {
  const php = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  return `<?php
if ( !defined( 'MEDIAWIKI' ) ) { exit; }
require_once "$IP/includes/PlatformSettings.php";
$wgSitename = ${php(SITE_NAME)};
$wgMetaNamespace = 'Sitecall_Wiki';
$wgScriptPath = '';
$wgServer = ${php(server)};
$wgResourceBasePath = $wgScriptPath;
$wgLogos = [ '1x' => "$wgResourceBasePath/resources/assets/change-your-logo.svg" ];
// No mail leaves the machine; the workflows never need it.
$wgEnableEmail = false;
$wgEnableUserEmail = false;
$wgDBtype = 'sqlite';
$wgDBname = 'my_wiki';
$wgDBserver = '';
$wgDBuser = '';
$wgDBpassword = '';
$wgSQLiteDataDir = ${php(`${dataDir}/db`)};
$sqliteServer = static function ( string $name ) use ( $wgSQLiteDataDir ): array {
  return [ 'type' => 'sqlite', 'dbname' => $name, 'tablePrefix' => '',
    'variables' => [ 'synchronous' => 'NORMAL' ], 'dbDirectory' => $wgSQLiteDataDir,
    'trxMode' => 'IMMEDIATE', 'flags' => 0 ];
};
$wgObjectCaches[CACHE_DB] = [ 'class' => SqlBagOStuff::class, 'loggroup' => 'SQLBagOStuff',
  'server' => $sqliteServer( 'wikicache' ) ];
$wgLocalisationCacheConf['storeServer'] = $sqliteServer( 'my_wiki_l10n_cache' );
$wgJobTypeConf['default'] = [ 'class' => 'JobQueueDB', 'claimTTL' => 3600,
  'server' => $sqliteServer( 'my_wiki_jobqueue' ) ];
$wgResourceLoaderUseObjectCacheForDeps = true;
$wgSharedTables[] = 'actor';
$wgMainCacheType = CACHE_NONE;
// Sessions live in the SQLite object cache, so a signed-in cookie works for curl and browser alike.
$wgSessionCacheType = CACHE_DB;
$wgEnableUploads = true;
$wgUploadDirectory = ${php(`${dataDir}/root/images`)};
$wgUploadPath = '/images';
$wgUseImageMagick = false;
$wgUseInstantCommons = false;
$wgPingback = false;
$wgLanguageCode = 'en';
$wgLocaltimezone = 'UTC';
$wgSecretKey = '5c1ecab1e0f3d2a4b6c8e0f2a4b6c8d0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2';
$wgAuthenticationTokenVersion = '1';
$wgUpgradeKey = '5c1ecab1e0f3d2a4';
$wgDiff3 = '/usr/bin/diff3';
$wgDefaultSkin = 'vector';
wfLoadSkin( 'Vector' );
// Jobs run from maintenance, not at the end of web requests, so answers do not wait on them.
$wgJobRunRate = 0;
$wgShowExceptionDetails = true;
`
}
