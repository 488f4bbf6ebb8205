"""The deterministic seed of a fresh graphite-web instance (run once, before the web server).

Creates the SQLite schema (Django migrations), the admin user, dashboards and events, and the
whisper files of the metrics: one point a minute over the last 12 hours, values drawn from the
metric's index and the minute so every start holds the same shape of data. Reads its data dir
from SITECALL_GRAPHITE_DIR and the seed itself, as JSON, from the file named by argv[1].
"""
import json
import os
import sys
import time

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402
import datetime  # noqa: E402
import whisper  # noqa: E402

from graphite.dashboard.models import Dashboard  # noqa: E402
from graphite.events.models import Event  # noqa: E402

seed = json.load(open(sys.argv[1]))
call_command('migrate', verbosity=0, interactive=False)

admin = seed['admin']
User.objects.create_superuser(admin['name'], admin['email'], admin['password'])

for name, targets in seed['dashboards']:
    graphs = []
    for target in targets:
        # The shape the dashboard page saves: [query string, params, render URL].
        params = {'target': [target]}
        graphs.append(['target=' + target, params,
                       '/render?target=' + target + '&title=' + target])
    state = {'name': name, 'graphs': graphs, 'timeConfig': {'type': 'relative',
             'relativeStartUnits': 'hours', 'relativeStartQuantity': '6',
             'relativeUntilUnits': 'now', 'relativeUntilQuantity': ''},
             'refreshConfig': {'enabled': False, 'interval': 60000},
             'graphSize': {'width': 400, 'height': 250}, 'defaultGraphParams': {}}
    Dashboard.objects.create(name=name, state=json.dumps(state))

now = timezone.now()
for what, tags, data, hours_ago in seed['events']:
    event = Event.objects.create(what=what, tags=tags, data=data,
                                 when=now - datetime.timedelta(hours=hours_ago))

base = os.path.join(os.environ['SITECALL_GRAPHITE_DIR'], 'storage', 'whisper')
t = int(time.time()) // 60 * 60
for i, metric in enumerate(seed['metrics']):
    path = os.path.join(base, *metric.split('.')) + '.wsp'
    os.makedirs(os.path.dirname(path), exist_ok=True)
    whisper.create(path, [(60, 60 * 24 * 2)], xFilesFactor=0)
    points = [(t - m * 60, float(10 * (i + 1) + (m * (i + 3)) % 37)) for m in range(720)]
    whisper.update_many(path, points)
print('seeded')
