# Serves Redmine with WEBrick on 127.0.0.1:ARGV[0]. Debian's Redmine has no app server in its
# Gemfile.lock (so `rails server` and `rackup` find none); webrick is installed as a system gem,
# so its lib dir is noted before Bundler narrows the load path and added back afterwards.
webrick_lib = File.join(Gem::Specification.find_by_name('webrick').full_gem_path, 'lib')
Dir.chdir('/usr/share/redmine')
require '/usr/share/redmine/config/environment'
$LOAD_PATH.unshift(webrick_lib)
require 'rack/handler/webrick'

Rack::Handler::WEBrick.run(
  Rails.application,
  Host: '127.0.0.1',
  Port: Integer(ARGV.fetch(0)),
  AccessLog: [],
  Logger: WEBrick::Log.new($stderr, WEBrick::Log::WARN)
)
