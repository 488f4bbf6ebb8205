-- Issue 13 item 3: the local sites (loopback, private network) a workspace's owner allowed URLs
-- from API keys and OAuth clients to reach, for indexing and browsing. `host` is a URL's host
-- (`name:port`, or a name for every port), lower-cased.
CREATE TABLE local_sites (
  tenant TEXT NOT NULL,
  host TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, host)
);
