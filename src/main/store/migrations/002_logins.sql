-- Saved site logins: the browser storage state (cookies, localStorage) a run of the site's tools
-- uses. Issue 6 moves the state into the vault (ciphertext only); until then it is kept here.
CREATE TABLE logins (
  tenant TEXT NOT NULL,
  site_host TEXT NOT NULL,
  storage_state TEXT NOT NULL,
  saved_at INTEGER NOT NULL,
  last_used_at INTEGER,
  PRIMARY KEY (tenant, site_host)
);
