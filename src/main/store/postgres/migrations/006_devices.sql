-- Issue 27 C: devices run what only they hold. A linked desktop registers as a device of its
-- workspace with the sites it holds logins for (host names only, never a value). A run of a
-- tool whose site has no login on the server and is held by a device gets a row in
-- `device_runs`; the device claims it (FOR UPDATE SKIP LOCKED), runs it with its own vault and
-- reports the outcome, which the node that started the run settles.
CREATE TABLE devices (
  id TEXT PRIMARY KEY,
  workspace TEXT NOT NULL,
  name TEXT NOT NULL,
  sites TEXT[] NOT NULL DEFAULT '{}',
  registered_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  UNIQUE (workspace, name)
);

CREATE TABLE device_runs (
  run_id TEXT PRIMARY KEY,
  device_id TEXT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  -- Past this (ms since the epoch) an unclaimed run ends `expired`.
  due_by BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  claimed_at BIGINT,
  -- The device's report (JSON), once it came.
  outcome TEXT,
  reported_at BIGINT
);
CREATE INDEX device_runs_waiting ON device_runs (device_id, created_at) WHERE claimed_at IS NULL;

-- Wake-ups for every node (LISTEN): a device's long poll, a run's waiter, the routing cache.
CREATE FUNCTION sitecall_device_run_notify() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('sitecall_device_runs', NEW.device_id);
  ELSIF NEW.outcome IS NOT NULL AND OLD.outcome IS NULL THEN
    PERFORM pg_notify('sitecall_device_done', NEW.run_id);
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER device_runs_notify AFTER INSERT OR UPDATE ON device_runs
  FOR EACH ROW EXECUTE FUNCTION sitecall_device_run_notify();

CREATE FUNCTION sitecall_devices_notify() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('sitecall_devices', COALESCE(NEW.workspace, OLD.workspace));
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER devices_notify AFTER INSERT OR DELETE OR UPDATE OF sites, name ON devices
  FOR EACH ROW EXECUTE FUNCTION sitecall_devices_notify();
