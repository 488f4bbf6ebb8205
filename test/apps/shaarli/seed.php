<?php
/**
 * Writes a Shaarli datastore with fixed bookmarks, as Shaarli itself stores them: a BookmarkArray
 * of Bookmark objects, serialized, deflated and base64-encoded behind a PHP comment (the format
 * of application/bookmark/BookmarkIO.php). Run by seed.ts with Debian's Shaarli classes, so the
 * objects are the installed version's own.
 *
 * Usage: php seed.php < {"datastore": "...", "timezone": "Europe/Paris", "bookmarks": [...]}
 */

require_once '/usr/share/shaarli/autoload.php';
require_once '/usr/share/shaarli/application/Utils.php';
require_once '/usr/share/shaarli/application/bookmark/LinkUtils.php';
require_once '/usr/share/shaarli/application/http/UrlUtils.php';

use Shaarli\Bookmark\Bookmark;
use Shaarli\Bookmark\BookmarkArray;

$input = json_decode(file_get_contents('php://stdin'), true, 512, JSON_THROW_ON_ERROR);
$zone = new DateTimeZone($input['timezone']);
date_default_timezone_set($input['timezone']);

$bookmarks = new BookmarkArray();
foreach ($input['bookmarks'] as $seed) {
    $bookmark = new Bookmark();
    // The date first: setId derives the short hash from the date and the id, as Shaarli does.
    $bookmark->setCreated(DateTime::createFromFormat('Y-m-d H:i:s', $seed['created'], $zone));
    $bookmark->setId($seed['id']);
    $bookmark->setUrl($seed['url']);
    $bookmark->setTitle($seed['title']);
    $bookmark->setDescription($seed['description']);
    $bookmark->setTags($seed['tags']);
    $bookmark->setPrivate($seed['private']);
    $bookmark->setSticky(false);
    $bookmark->setThumbnail(false);
    $bookmarks[$bookmark->getId()] = $bookmark;
}
$bookmarks->reorder();

$data = '<?php /* ' . base64_encode(gzdeflate(serialize($bookmarks))) . ' */ ?>';
if (file_put_contents($input['datastore'], $data) === false) {
    fwrite(STDERR, "cannot write {$input['datastore']}\n");
    exit(1);
}
$hashes = [];
foreach ($bookmarks as $bookmark) {
    $hashes[$bookmark->getId()] = $bookmark->getShortUrl();
}
echo json_encode($hashes), "\n";
