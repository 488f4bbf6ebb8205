<?php
// Installs WordPress into the fresh database and writes the seed data, in a fixed order so every
// instance gets the same ids. Run by php-cli: php install.php <wordpress dir> <seed.json>.
define('WP_INSTALLING', true);
$root = $argv[1];
$seed = json_decode(file_get_contents($argv[2]), true);
$_SERVER['HTTP_HOST'] = parse_url($seed['origin'], PHP_URL_HOST) . ':' . parse_url($seed['origin'], PHP_URL_PORT);
$_SERVER['REQUEST_URI'] = '/';

// No mail server here: the installer's notice to the admin would fail loudly.
function wp_new_blog_notification($blog_title, $blog_url, $user_id, $password) {}

require $root . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/post.php';

$admin = $seed['admin'];
wp_install($seed['title'], $admin['name'], $admin['email'], true, '', wp_slash($admin['password']));
switch_theme($seed['theme']);
update_option('permalink_structure', '/%postname%/');
update_option('blogdescription', $seed['tagline']);
update_option('timezone_string', 'UTC');
// Avatars come from gravatar.com: off, so no page asks the network.
update_option('show_avatars', 0);
// Answered now, so the first admin page of every instance skips its compression test requests.
update_site_option('can_compress_scripts', 0);

// The installer's own sample content goes: the seed is the whole content.
foreach (get_posts(['post_type' => ['post', 'page'], 'post_status' => 'any', 'numberposts' => -1]) as $p) {
    wp_delete_post($p->ID, true);
}

foreach ($seed['users'] as $u) {
    $id = wp_insert_user([
        'user_login' => $u['name'], 'user_pass' => $u['password'], 'user_email' => $u['email'],
        'display_name' => $u['display'], 'role' => $u['role'],
    ]);
    if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
    if ($id !== $u['id']) { fwrite(STDERR, "user {$u['name']} got id $id\n"); exit(1); }
}

foreach ($seed['categories'] as $c) {
    $r = wp_insert_term($c['name'], 'category', ['slug' => $c['slug']]);
    if (is_wp_error($r)) { fwrite(STDERR, $r->get_error_message() . "\n"); exit(1); }
    if ($r['term_id'] !== $c['id']) { fwrite(STDERR, "category {$c['name']} got id {$r['term_id']}\n"); exit(1); }
}

foreach ($seed['posts'] as $p) {
    $id = wp_insert_post([
        'import_id' => $p['id'], 'post_title' => $p['title'], 'post_name' => $p['slug'],
        'post_content' => $p['content'], 'post_status' => $p['status'], 'post_type' => 'post',
        'post_author' => 1, 'post_date' => $p['date'], 'post_date_gmt' => $p['date'],
        'post_category' => [$p['category']],
    ], true);
    if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
    if ($id !== $p['id']) { fwrite(STDERR, "post {$p['title']} got id $id\n"); exit(1); }
}
echo "installed\n";
