-- A long poll's claim is only an offer until the device takes it (`POST .../runs/{runId}/take`):
-- a poll whose device hung up as the run came cannot lose it. An offer not taken within the
-- handover window (deviceRecords.ts HANDOVER_MS) goes back to the queue, and at the run's
-- deadline it ends `expired` as a run nobody claimed; a device never runs what it did not take.
ALTER TABLE device_runs ADD COLUMN taken_at BIGINT;
