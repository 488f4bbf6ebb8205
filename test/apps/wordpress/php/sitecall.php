<?php
/**
 * Plugin Name: Sitecall offline instance
 * Description: Keeps a throwaway test instance quiet and offline: mail is dropped (there is no
 * sendmail here), and WordPress never asks the network for updates or news.
 */
add_filter('pre_wp_mail', '__return_true');
add_filter('pre_site_transient_update_core', '__return_null');
add_filter('pre_site_transient_update_plugins', '__return_null');
add_filter('pre_site_transient_update_themes', '__return_null');
add_filter('pre_http_request', function ($pre, $args, $url) {
    return new WP_Error('http_request_blocked', 'This instance is offline.');
}, 10, 3);
