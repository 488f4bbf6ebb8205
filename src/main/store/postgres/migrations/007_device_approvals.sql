-- Issue 27 C: a device-bound write asks its approval on the device (the desktop's Inbox), and a
-- device can be unlinked (`DELETE /v1/devices/{id}`).
-- `asks_approval`: the caller did not confirm the write; the device asks its person before it
-- sends anything and reports a denial as the declined run it is.
ALTER TABLE device_runs ADD COLUMN asks_approval BOOLEAN NOT NULL DEFAULT false;
-- An unlinked device's rows stay until their runs are settled: its pending runs get an `expired`
-- outcome that their waiting nodes read (a cascade would delete the row under them).
ALTER TABLE device_runs DROP CONSTRAINT device_runs_device_id_fkey;
-- A device that asks approvals itself says so when it registers (a desktop of an earlier version
-- would run an unconfirmed write as confirmed): only such a device is handed a write to approve.
ALTER TABLE devices ADD COLUMN asks_approvals BOOLEAN NOT NULL DEFAULT false;
DROP TRIGGER devices_notify ON devices;
CREATE TRIGGER devices_notify AFTER INSERT OR DELETE OR UPDATE OF sites, name, asks_approvals
  ON devices FOR EACH ROW EXECUTE FUNCTION sitecall_devices_notify();
