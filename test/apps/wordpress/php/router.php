<?php
// Router for PHP's built-in server (php -S ... router.php): a path that names an existing file is
// served as usual (static assets, wp-admin/*.php, wp-login.php, directories with an index.php);
// every other path goes to WordPress's front controller, as Apache's rewrite rules would send it,
// so pretty permalinks (/garden-planning/, /wp-json/...) work.
$root = $_SERVER['DOCUMENT_ROOT'];
$path = rawurldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?? '/');
$file = $root . $path;
if ($path !== '/' && strpos($path, '..') === false) {
    if (is_file($file)) {
        return false;
    }
    if (is_dir($file) && is_file(rtrim($file, '/') . '/index.php')) {
        return false;
    }
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $root . '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
require $root . '/index.php';
