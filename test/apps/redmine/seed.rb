# Fills a freshly migrated Redmine database with the corpus' seed data (see seed.ts), always in
# the same order so every id is the same on every start. Run with `rails runner`.
require 'json'

seed = JSON.parse(ENV.fetch('SITECALL_SEED'))

# The REST API lets answer keys read the app's state directly (basic auth as the admin).
Setting.rest_api_enabled = '1'
Setting.default_language = 'en'
Setting.host_name = '127.0.0.1'

admin = User.find_by_login!('admin')
admin.password = seed['admin']['password']
admin.password_confirmation = seed['admin']['password']
# Debian's admin must change its password at first login; the corpus' person must not.
admin.must_change_passwd = false
admin.mail = 'admin@example.test'
admin.save!
User.current = admin

people = {}
seed['people'].each do |p|
  user = User.new(firstname: p['firstname'], lastname: p['lastname'], mail: "#{p['login']}@example.test")
  user.login = p['login']
  user.password = p['password']
  user.password_confirmation = p['password']
  user.status = User::STATUS_ACTIVE
  if p['totp']
    # Paired TOTP, as after "Enable two-factor authentication" in My account (the key is stored in
    # clear: no database_cipher_key is configured).
    user.twofa_scheme = 'totp'
    user.twofa_totp_key = p['totp']
  end
  user.save!
  people[p['login']] = user
end

developer = Role.find_by_name!('Developer')
projects = {}
seed['projects'].each do |p|
  project = Project.new(name: p['name'], identifier: p['identifier'], description: p['description'])
  project.is_public = true
  project.trackers = Tracker.order(:id).to_a
  project.enabled_module_names = %w[issue_tracking time_tracking files wiki]
  project.save!
  people.each_value { |user| Member.create!(project: project, principal: user, role_ids: [developer.id]) }
  projects[p['identifier']] = project
end

priority = IssuePriority.default || IssuePriority.first
seed['issues'].each do |i|
  issue = Issue.new(
    project: projects.fetch(i['project']),
    tracker: Tracker.find(i['tracker']),
    subject: i['subject'],
    description: i['description'],
    priority: priority
  )
  issue.author = admin
  issue.status = IssueStatus.find(i['status'])
  issue.assigned_to = people[i['assignee']] if i['assignee']
  issue.save!
end

puts "seeded #{Issue.count} issues in #{Project.count} projects"
