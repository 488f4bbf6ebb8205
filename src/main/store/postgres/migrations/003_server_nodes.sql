-- The nodes of a team server that are alive (issue 27 A): each writes its heartbeat every few
-- seconds (PostgreSQL's clock, so nodes' clocks need not agree). A node whose heartbeat stopped
-- is gone; its runs in flight are taken over by a live node (runs.node_id), which ends or resumes
-- them as a restart would.
CREATE TABLE server_nodes (
  id TEXT PRIMARY KEY,
  started_at BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL
);

CREATE INDEX runs_in_flight_by_node ON runs (node_id)
  WHERE node_id IS NOT NULL AND status IN ('accepted', 'working');
